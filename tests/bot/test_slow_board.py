"""A slow board with samba on: its CGI takes 2–3 s to answer and stamps each post somewhere inside
that time, as Perl CGI on a loaded Apache does. The bot counts its pace from the board's answer, so
a burst of twenty answers and a rollover meet not one samba refusal; when the board's owner turns
samba off, the bot follows at its next read of SETTING.TXT.

Time is injected into the board (its samba and its post dates) and the bot; the slow CGI moves it
on while a request is being handled, before and after the board stamps the post."""

from __future__ import annotations

import itertools
import random
import re
from datetime import datetime, timedelta
from pathlib import Path

from werkzeug.wrappers import Request, Response

from board.admin import update_settings
from bot.thread_bot import SETTINGS_MAX_AGE
from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY
from scheduler import ThreadBot
from scraper.dat import parse_dat
from scraper.fetch import make_session
from store.db import Store
from tests.bot.test_pace_on_board import refusals_of
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import Clock

SAMBA = 10


def slow_cgi(board: LocalBoard, clock: Clock, seed: int = 26) -> tuple[list[float], list[str]]:
    """bbs.cgi takes 2–3 s; the post is stamped after a share of it that varies from one request to
    the next (the CGI's start-up before, the page after). Returns the seconds each request took, and
    every samba page the board gave."""
    rng = random.Random(seed)
    took: list[float] = []
    refused: list[str] = []

    def slow(request: Request, forward) -> Response:
        total = rng.uniform(2.0, 3.0)
        before = rng.uniform(0.0, total)
        clock.now += timedelta(seconds=before)
        answer = forward()
        clock.now += timedelta(seconds=total - before)
        took.append(total)
        page = answer.get_data().decode("cp932", errors="replace")
        if "たたないと書けません" in page:
            refused.append(page)
        return answer

    board.script.script("POST", "/test/bbs.cgi", slow, times=None)
    return took, refused


def stamped(board: LocalBoard, key: str) -> list[tuple[datetime, bool]]:
    """(the board's stamp, by the bot) for each post of a thread."""
    posts = parse_dat((board.data / "test" / "dat" / f"{key}.dat").read_bytes().decode("cp932"))
    return [(post.date, post.trip == BOT_TRIP) for post in posts]


def answered_anywhere(board: LocalBoard, number: int, keys: list[str]) -> bool:
    """Whether post `number` (of the thread the player wrote in) has its answer in one of the game's
    threads: an answer a full thread could not take goes to the next one, pointing back."""
    asked_in = board.key
    pointing = re.compile(rf"(?:^>>|/{asked_in}/){number}$", re.M)
    try:
        for key in keys:
            board.key = key
            if any(pointing.search(post.body) for post in board.posts() if post.trip == BOT_TRIP):
                return True
        return False
    finally:
        board.key = asked_in


def drive(bot: ThreadBot, clock: Clock, done, limit: int = 400) -> None:
    """Poll as the poll loop would: at the next poll or the next held post, whichever comes first."""
    for _ in range(limit):
        result = bot.tick()
        if done():
            return
        upcoming = [clock.now + timedelta(seconds=bot.interval(clock.now))]
        if result.wake_at is not None:
            upcoming.append(result.wake_at)
        clock.now = max(min(upcoming), clock.now + timedelta(milliseconds=100))
    raise AssertionError("the bot did not get there")


def test_a_burst_of_twenty_answers_and_a_rollover_on_a_slow_board_meet_no_samba_refusal(
    tmp_path: Path,
) -> None:
    clock = Clock()
    board = LocalBoard.start(
        tmp_path / "board", clock=clock, apart=True, BBS_SAMBATIME=str(SAMBA), BBS_THREAD_STOP="34"
    )
    store = Store(tmp_path / "bot.sqlite")
    try:
        took, refused = slow_cgi(board, clock)
        config = GameConfig("g", "dice", board.url(), poll_seconds=1, idle_seconds=1, rollover_at=4)
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
        threads = [bot.ref.key]
        latencies: list[float] = []
        for i in range(20):
            board.key = bot.ref.key  # players follow the game to its next thread
            asked = clock.now
            number = board.post(f"dice1d{6 + i}=", name=f"プレイヤー{i}")
            drive(bot, clock, lambda n=number: answered_anywhere(board, n, [*threads, bot.ref.key]))
            latencies.append((clock.now - asked).total_seconds())
            if bot.ref.key != threads[-1]:
                threads.append(bot.ref.key)
        drive(bot, clock, lambda: not bot.draining and not store.owes(bot.thread_id))

        assert refused == []  # not one samba refusal, on a board whose CGI takes 2–3 s
        assert len(threads) == 2, "the thread filled and the game moved on"
        own = sorted(at for key in threads for at, by_bot in stamped(board, key) if by_bot)
        assert len(own) >= 22  # the answers came one by one: each cost the board's wait
        gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(own)]
        assert min(gaps) >= SAMBA  # the board's own stamps, the new thread among them
        assert min(took) >= 2.0 and max(took) <= 3.0
        # An answer waits for the board's pace after the last one, and the slow CGI: never more; the
        # one the rollover held waited for the new thread and the link too (three posts).
        *answers, rollover = sorted(latencies)
        assert max(answers) <= SAMBA + 1 + 2 * 3.0 + 1
        assert rollover <= 3 * (SAMBA + 1 + 3.0) + 1
        print(
            f"receipt latency (board seconds): {sorted(latencies)}; CGI took {min(took):.1f}-{max(took):.1f} s"
        )
    finally:
        board.close()
        store.close()


def test_the_bot_follows_the_board_when_its_owner_turns_samba_off(tmp_path: Path) -> None:
    clock = Clock()
    board = LocalBoard.start(tmp_path / "board", clock=clock, apart=True, BBS_SAMBATIME=str(SAMBA))
    store = Store(tmp_path / "bot.sqlite")
    try:
        refused = refusals_of(board)
        config = GameConfig("g", "dice", board.url(), poll_seconds=1, idle_seconds=1)
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
        drive(bot, clock, lambda: not store.owes(bot.thread_id))  # the opening
        update_settings(board.data, "test", {"BBS_SAMBATIME": "0"})
        clock.now += SETTINGS_MAX_AGE
        first, second = (board.post(f"dice1d{n}=", name=f"P{n}") for n in (6, 8))
        drive(bot, clock, lambda: bool(board.replies_to(first)))
        answered = clock.now
        third = board.post("dice1d10=", name="P10")
        drive(bot, clock, lambda: bool(board.replies_to(second) and board.replies_to(third)))
        # samba 0 read again: the next answer did not wait out the old 10 s
        assert (clock.now - answered).total_seconds() < 3
        assert refused == []
    finally:
        board.close()
        store.close()


def test_on_a_slow_board_in_real_time_the_cookie_page_and_the_answers_meet_no_samba(tmp_path: Path) -> None:
    """The same in real time (no injected clock): the CGI takes 2–3 s for the bot's requests, whose
    first post passes the cookie page first (two slow requests); samba 5 s; each player writes the
    moment the last answer is in, so the board's pace is what the bot waits for."""
    import time

    samba = 5
    board = LocalBoard.start(tmp_path / "board", apart=True, BBS_SAMBATIME=str(samba))
    store = Store(tmp_path / "bot.sqlite")
    rng = random.Random(29)
    refused: list[str] = []

    def slow(request: Request, forward) -> Response:
        total = rng.uniform(2.0, 3.0)
        before = rng.uniform(0.0, total)
        time.sleep(before)
        answer = forward()
        time.sleep(total - before)
        page = answer.get_data().decode("cp932", errors="replace")
        if "たたないと書けません" in page:
            refused.append(page)
        return answer

    # the bot's requests (the players write from addresses of their own, through a proxy header)
    board.script.script(
        "POST", "/test/bbs.cgi", slow, times=None, when=lambda r: "X-Forwarded-For" not in r.headers
    )
    try:
        config = GameConfig("g", "dice", board.url(), poll_seconds=0.2, idle_seconds=0.2)
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), registry=REGISTRY)
        for i in range(3):
            number = board.post(f"dice1d{6 + i}=", name=f"P{i}")
            deadline = time.monotonic() + 40
            while not board.replies_to(number):
                assert time.monotonic() < deadline, "not answered"
                result = bot.tick()
                time.sleep(0.05 if result.wake_at is None else 0.02)
        assert refused == []
        own = [at for at, by_bot in stamped(board, board.key) if by_bot]
        assert len(own) == 3 and min((b - a).total_seconds() for a, b in itertools.pairwise(own)) >= samba
    finally:
        board.close()
        store.close()
