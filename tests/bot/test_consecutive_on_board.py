"""連投規制 on the local board: a battle royale on the clock that nobody else writes in, on a board
with timeclose on and samba 10 s. The bot never asks past the limit (not one 501 or 593), says once
in its last allowed post that the game waits, goes on by itself after a player's post, and merges
what waited into as few posts as the board takes: two nudges and the game has ended in the thread.

Time is injected into the board and the bot, and moves as the poll loop would."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY
from poster.consecutive import HOLD_NOTICE
from scheduler import ThreadBot
from scraper.fetch import make_session
from store.db import Store
from tests.bot.test_pace_on_board import refusals_of
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import Clock


def small_battle_royale(path: Path) -> Path:
    """The packaged scenario with its first six prefectures: a game of a few periods."""
    template = REGISTRY.get("battle-royale").template() or ""
    head, *prefectures = template.split("[[prefectures]]")
    path.write_text(head + "[[prefectures]]".join(["", *prefectures[:6]]), "utf-8")
    return path


def test_a_battle_royale_nobody_writes_in_ends_under_renkou_kisei_with_two_nudges(tmp_path: Path) -> None:
    clock = Clock()
    board = LocalBoard.start(
        tmp_path / "board",
        clock=clock,
        title="バトロワスレ",
        apart=True,
        BBS_SAMBATIME="10",
        timecount="3",
        timeclose="3",
        BBS_LINE_NUMBER="30",
        BBS_MESSAGE_COUNT="4096",
    )
    config = GameConfig(
        "br",
        "battle-royale",
        board.url(),
        poll_seconds=300,  # the loop below wakes the bot at its deadlines and wake times anyway
        idle_seconds=300,
        scenario=small_battle_royale(tmp_path / "br.toml"),
        schedule={"interval": "10m", "anchor": "2026-12-01 20:10", "grace": "0m"},
        dice=False,
        seed="renkou|battle-royale|1",
    )
    store = Store(tmp_path / "bot.sqlite")
    try:
        refused = refusals_of(board, "ＥＲＲＯＲ")  # a 501 連続投稿 or a 593, any refusal
        bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
        nudges, held_since = 0, None
        for _ in range(5000):
            result = bot.tick()
            over = store.game_status("br") == "finished" and not store.owes(bot.thread_id)
            if over:
                break
            held = result.note.startswith("連投規制")
            held_since = (held_since or clock.now) if held else None
            if held_since is not None and clock.now - held_since >= timedelta(minutes=30):
                # the game has waited half an hour: a player who reads the thread nudges it
                nudges, held_since = nudges + 1, None
                board.post("まだ？", name="観戦者")
            upcoming = [clock.now + timedelta(seconds=bot.interval(clock.now))]
            # a deadline passed while the game is held stays due (the bot resolves it after a post):
            # the loop wakes a poll for it once, as the Runner's clock job does, then polls as usual
            upcoming += [at for at in (result.wake_at, bot.next_event()) if at is not None and at > clock.now]
            clock.now = max(min(upcoming), clock.now + timedelta(seconds=1))
        else:
            raise AssertionError("the game did not end in the thread")

        assert refused == []  # never a 501 連続投稿 nor a 593
        posts = board.posts()
        own = [p for p in posts if p.trip == BOT_TRIP]
        assert nudges == 2
        # every hold was said once, in the last post before it; the game's last post says nothing of it
        held = [i for i, p in enumerate(posts) if p.trip == BOT_TRIP and HOLD_NOTICE in p.body]
        assert len(held) == nudges and all(posts[i + 1].name == "観戦者" for i in held)
        assert HOLD_NOTICE not in own[-1].body
        text = "\n".join(p.body for p in own)
        assert "優勝" in text  # the ending reached the thread
        print(f"{len(own)} bot posts, {nudges} nudges, {len(posts)} posts in all")
    finally:
        board.close()
        store.close()
