"""`threadgm run`'s process: the games on the poll loop, and the game page beside them when [web]
asks for it (none otherwise); what posting needs (requests) and what the page needs (its web stack)
are loaded only when the bot posts and serves the page."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from bot.runner import KEEP_RHYTHM
from engine.config import BotConfig, ConfigError, GameConfig, WebConfig
from engine.rules import REGISTRY
from scheduler import Runner
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard

ROOT = Path(__file__).resolve().parents[2]


def test_the_runner_serves_the_game_page_it_was_asked_for(board: LocalBoard, tmp_path: Path) -> None:
    bot = BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite", web=WebConfig(port=0))
    runner = Runner(bot, [GameConfig("ダイス卓<b>", "dice", board.url(), 0.5, 0.5)], REGISTRY)
    runner.start()
    try:
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))
        page = requests.get(f"{runner.page.url}/", timeout=10)
        assert page.status_code == 200
        assert "ダイス卓&lt;b&gt;" in page.text and "ダイス卓<b>" not in page.text
        assert requests.post(f"{runner.page.url}/", timeout=10).status_code == 405
    finally:
        runner.stop()


def test_without_web_no_page_is_served(board: LocalBoard, tmp_path: Path) -> None:
    runner = Runner(
        BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"),
        [GameConfig("g", "dice", board.url())],
        REGISTRY,
    )
    try:
        assert runner.page is None
    finally:
        runner.stop()


_RUN_AND_REPORT = """
import json, sys
from pathlib import Path
from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY
from bot.runner import Runner

bot, url = BotConfig(name=sys.argv[1], database=Path(sys.argv[2])), sys.argv[3]
runner = Runner(bot, [GameConfig("g", "dice", url)], REGISTRY)
try:
    ticks = [runner.bots[0].tick() for _ in range(3)]
finally:
    runner.stop()
print(json.dumps({"reads": [t.read for t in ticks], "sent": sum(t.sent for t in ticks), "modules": sorted(sys.modules)}))
"""
ONLY_TO_POST = ("requests", "urllib3", "bs4")  # posting loads them; reading needs none of them
ONLY_FOR_THE_PAGE = ("werkzeug", "jinja2", "waitress", "web.", "board.server")


def test_a_bot_that_only_reads_loads_nothing_it_needs_to_post(board: LocalBoard, tmp_path: Path) -> None:
    def run() -> dict:
        argv = [BOT_NAME, str(tmp_path / "b.sqlite"), board.url()]
        done = subprocess.run(
            [sys.executable, "-c", _RUN_AND_REPORT, *argv], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    first = run()
    assert first["sent"] == 1 and any(p.trip == BOT_TRIP for p in board.posts())  # the opening, posted
    assert set(ONLY_TO_POST) <= set(first["modules"])
    restarted = run()  # nothing to answer: the polls read the thread, and the bot posts nothing
    assert restarted["sent"] == 0 and restarted["reads"] == ["unchanged"] * 3
    assert [m for m in restarted["modules"] if m.startswith(ONLY_TO_POST + ONLY_FOR_THE_PAGE)] == []
    board.post("dice1d6=")  # a player writes: the bot answers, loading what posting needs then
    assert len([p for p in board.posts() if p.trip == BOT_TRIP]) == 1
    answered = run()
    assert answered["sent"] == 1 and len([p for p in board.posts() if p.trip == BOT_TRIP]) == 2


def test_a_start_cut_short_by_a_game_it_cannot_set_up_stores_no_game(
    board: LocalBoard, tmp_path: Path
) -> None:
    bot = BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite")
    (tmp_path / "sjis.toml").write_bytes(b"title = 1\n\x82")  # neither UTF-8 nor Shift_JIS
    unreadable = GameConfig(
        "g2", "naval", board.url().replace(board.key, "1700000000"), scenario=tmp_path / "sjis.toml"
    )
    with pytest.raises(ConfigError):
        Runner(bot, [GameConfig("g1", "dice", board.url()), unreadable], REGISTRY)
    store = Store(tmp_path / "b.sqlite")
    try:  # all the games' first rows are one transaction: none of them was kept
        assert store.db["games"].count == 0 and store.db["threads"].count == 0
    finally:
        store.close()
    runner = Runner(bot, [GameConfig("g1", "dice", board.url())], REGISTRY)  # the lock was let go
    try:
        assert [b.game.id for b in runner.bots] == ["g1"] and runner.store.db["games"].count == 1
    finally:
        runner.stop()


def test_a_poll_a_little_late_keeps_the_rhythm_and_a_backlog_starts_it_again(
    board: LocalBoard, tmp_path: Path
) -> None:
    runner = Runner(
        BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"),
        [GameConfig("g", "dice", board.url(), poll_seconds=10, idle_seconds=10)],
        REGISTRY,
    )
    try:
        poll = runner._poll(runner.bots[0])
        board.wait_for(lambda: (poll(0.0, 0.0), any(p.trip == BOT_TRIP for p in board.posts()))[1])
        poll(0.0, 0.0)  # its own opening read back: nothing owed now
        due = time.monotonic()
        # a loaded machine ran it 0.3 s late: the next one is due an interval after this one was due
        assert poll(due, due + 0.3) == due + 10
        # a backlog (late by more than KEEP_RHYTHM): an interval after it ran, never at once
        assert poll(due, due + KEEP_RHYTHM + 1) == due + KEEP_RHYTHM + 1 + 10
    finally:
        runner.stop()
