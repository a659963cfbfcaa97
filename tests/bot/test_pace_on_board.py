"""The bot on a local board with samba on and players at addresses of their own, as on a real board:
no post is refused for its pace, answers that waited go together, an idle poll is one request and
no database write, and a rollover puts the link in the old thread with the report begun there."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path

from werkzeug.wrappers import Request, Response

from board.admin import update_settings
from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY
from scheduler import ThreadBot
from scraper.dat import parse_dat
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import GM_TRIP, SCHEDULE, Clock


def refusals_of(board: LocalBoard, mark: str = "たたないと書けません") -> list[str]:
    """Every samba page (every page holding `mark`) the board gives the bot, as the bot reads it."""
    refused: list[str] = []

    def watch(request: Request, forward) -> Response:
        answer = forward()
        page = answer.get_data().decode("cp932", errors="replace")
        if mark in page:
            refused.append(page)
        return answer

    board.script.script("POST", "/test/bbs.cgi", watch, times=None)
    return refused


def test_a_burst_of_posts_is_answered_at_the_boards_pace_without_one_refusal(tmp_path: Path) -> None:
    board = LocalBoard.start(tmp_path / "board", apart=True, BBS_SAMBATIME="1")
    store = Store(tmp_path / "bot.sqlite")
    try:
        refused = refusals_of(board)
        bot = ThreadBot(
            GameConfig("g", "dice", board.url(), 0.2, 0.2),
            BotConfig(name=BOT_NAME),
            store,
            make_session(),
            registry=REGISTRY,
        )
        bot.tick()  # the opening
        numbers = [board.post(f"dice1d{6 + i}=", name=f"プレイヤー{i}") for i in range(4)]
        deadline = time.monotonic() + 30
        while not all(board.replies_to(n) for n in numbers):
            assert time.monotonic() < deadline, "not answered"
            result = bot.tick()
            time.sleep(0.1 if result.wake_at is None else 0.05)
        assert refused == []
        assert [len(board.replies_to(n)) for n in numbers] == [1, 1, 1, 1]
        own = [p for p in board.posts() if p.trip == BOT_TRIP]
        assert len(own) <= 3  # the opening, then the four answers in at most two posts

        time.sleep(1.1)  # the board's Last-Modified is trusted once a second older than its clock
        bot.tick()  # reads the bot's own last answer
        changes, reads, requests = store.db.conn.total_changes, board.reads(), len(board.script.seen)
        for _ in range(5):
            bot.tick()
        assert store.db.conn.total_changes == changes  # idle: nothing written
        assert board.reads() == reads + 5 and len(board.script.seen) == requests + 5  # one request each
    finally:
        board.close()
        store.close()


def dat(board: LocalBoard, key: str):
    return parse_dat((board.data / "test" / "dat" / f"{key}.dat").read_bytes().decode("cp932"))


def test_rollover_under_samba_keeps_the_begun_report_and_the_link_in_the_old_thread(tmp_path: Path) -> None:
    clock = Clock()
    # Two lines a post: every report comes in parts.
    settings = {"BBS_SAMBATIME": "10", "BBS_LINE_NUMBER": "1"}
    board = LocalBoard.start(tmp_path / "board", clock=clock, title="数当てスレ", apart=True, **settings)
    scenario = tmp_path / "guess.toml"
    scenario.write_text('players = ["アリス", "ボブ"]\n', "utf-8")
    config = GameConfig(
        "guess",
        "guess",
        board.url(),
        scenario=scenario,
        schedule=SCHEDULE,
        gm_trips=(GM_TRIP,),
        dice=False,
        rollover_at=5,
    )
    store = Store(tmp_path / "bot.sqlite")
    try:
        refused = refusals_of(board)
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
        old = bot.ref

        def settle() -> None:
            for _ in range(200):
                bot.tick()
                if not bot.draining and not store.owes(bot.thread_id):
                    return
                clock.now += timedelta(seconds=11)
            raise AssertionError("the bot still owes posts")

        settle()  # the opening, part by part at the board's pace
        clock.at("20:30:00")
        board.post("＜予想＞42", name="アリス")
        board.post("＜予想＞7", name="ボブ")
        settle()
        written = len(dat(board, old.key))
        update_settings(board.data, "test", {"BBS_THREAD_STOP": str(written + 7)})
        bot.limits = None  # the board's settings are read again
        clock.at("21:02:00")
        settle()  # the period's report: its first part fills the thread to the rollover mark
        assert bot.ref.key != old.key
        posts = dat(board, old.key)
        # The report had not begun when the old thread ran short: it goes whole to the new thread,
        # and the old one ends with the link to it.
        assert posts[-1].trip == BOT_TRIP and posts[-1].body == f"次スレを立てました: {bot.ref.read_url}"
        assert not any("ピリオド1 更新" in p.body for p in posts)
        new = [p for p in dat(board, bot.ref.key) if p.trip == BOT_TRIP]
        assert new[0].body.startswith("数当ての続きです") and f"前スレ: {old.read_url}" in new[0].body
        report = [p.body for p in new[1:]]
        assert report[0].startswith("【ピリオド1 更新】") and "鍵 ピリオド1" in "\n".join(report)
        assert refused == []
        assert store.thread(old.id).status == "moved"
    finally:
        board.close()
        store.close()


def test_a_battle_royale_of_twenty_periods_with_a_rollover_never_trips_samba(tmp_path: Path) -> None:
    # The measurement on a real server: samba 10 s, a battle royale and a rollover. Time is
    # injected into the board (its samba counts it too) and the bot, and moves as a poll loop would:
    # to the next poll, the next held post or the next deadline, whichever comes first.
    clock = Clock()
    board = LocalBoard.start(
        tmp_path / "board",
        clock=clock,
        title="都道府県バトロワ",
        apart=True,
        BBS_SAMBATIME="10",
        BBS_THREAD_STOP="30",
    )
    scenario = tmp_path / "br.toml"
    scenario.write_text(REGISTRY.get("battle-royale").template() or "", "utf-8")
    config = GameConfig(
        "br",
        "battle-royale",
        board.url(),
        poll_seconds=300,
        idle_seconds=300,
        scenario=scenario,
        schedule={"interval": "10m", "anchor": "2026-12-01 20:10", "grace": "0m"},
        dice=False,
        rollover_at=5,
        seed="pace|battle-royale|1",
    )
    store = Store(tmp_path / "bot.sqlite")
    try:
        refused = refusals_of(board)
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
        first = bot.ref
        for _ in range(3000):
            result = bot.tick()
            if store.resolution("br", 20) is not None and not store.owes(bot.thread_id) and not bot.draining:
                break
            upcoming = [clock.now + timedelta(seconds=bot.interval(clock.now))]
            upcoming += [at for at in (result.wake_at, bot.next_event()) if at is not None]
            clock.now = max(min(upcoming), clock.now + timedelta(seconds=1))
        else:
            raise AssertionError("twenty periods were not played")
        threads = [first.key, bot.ref.key]
        assert threads[0] != threads[1] and [t.status for t in store.threads_of_game("br")] == [
            "moved",
            "active",
        ]
        assert refused == []  # not one samba refusal
        old, new = (dat(board, key) for key in threads)
        assert old[-1].trip == BOT_TRIP and old[-1].body == f"次スレを立てました: {bot.ref.read_url}"
        for posts in (old, new):  # every period report sits whole in one thread: its key closes it there
            text = "\n".join(p.body for p in posts if p.trip == BOT_TRIP)
            begun = {int(n) for n in re.findall(r"^【ピリオド(\d+) 更新】", text, flags=re.M)}
            keyed = {int(n) for n in re.findall(r"^鍵 ピリオド(\d+):", text, flags=re.M)}
            assert begun == keyed and begun
        assert len(set(re.findall(r"【ピリオド(\d+) 更新】", "\n".join(p.body for p in old + new)))) >= 20
    finally:
        board.close()
        store.close()
