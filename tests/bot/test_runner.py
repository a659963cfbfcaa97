"""`threadgm run`'s process: the games on the poll loop, and the game page beside them when [web]
asks for it (none otherwise); what posting needs (requests), what the page needs (its web stack)
and what the game clocks need (APScheduler) are loaded only when the bot posts, serves the page and
has a game on the clock."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
import requests
from apscheduler.schedulers.background import BackgroundScheduler

from bot.runner import KEEP_RHYTHM
from engine.config import BotConfig, ConfigError, GameConfig, WebConfig
from engine.dice.disclosure import next_disclosure
from engine.keys import JST
from engine.rules import REGISTRY
from scheduler import Runner
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import GM_TRIP

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


# A restarted bot: it reports what it loaded after polls with nothing to answer, then (told on its
# standard input that a player has written) after the poll that answers.
_RESTART_AND_REPORT = """
import json, sys, time
from pathlib import Path
from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY
from bot.runner import Runner

def report(ticks):
    modules = sorted(sys.modules)
    print(json.dumps({"reads": [t.read for t in ticks], "sent": sum(t.sent for t in ticks), "modules": modules}))
    sys.stdout.flush()

bot, url = BotConfig(name=sys.argv[1], database=Path(sys.argv[2])), sys.argv[3]
runner = Runner(bot, [GameConfig("g", "dice", url)], REGISTRY)
try:
    ticks = [runner.bots[0].tick() for _ in range(3)]
    runner._poll(runner.bots[0])(time.monotonic(), time.monotonic())  # and the runner's own part of a poll
    report(ticks)
    sys.stdin.readline()
    report([runner.bots[0].tick()])
finally:
    runner.stop()
"""
ONLY_TO_POST = ("requests", "urllib3", "bs4")  # posting loads them; reading needs none of them
ONLY_FOR_THE_PAGE = ("werkzeug", "jinja2", "waitress", "web.", "board.server")
ONLY_FOR_CLOCKS = ("apscheduler", "tzlocal", "asyncio", "difflib")  # a game on the clock (or a schedule's mistake)


def test_a_bot_that_only_reads_loads_nothing_it_needs_to_post(board: LocalBoard, tmp_path: Path) -> None:
    bot = BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite")
    first = Runner(bot, [GameConfig("g", "dice", board.url())], REGISTRY)
    try:  # the opening posted, then read back
        assert sum(first.bots[0].tick().sent for _ in range(3)) == 1
    finally:
        first.stop()
    restarted = subprocess.Popen(
        [sys.executable, "-c", _RESTART_AND_REPORT, BOT_NAME, str(bot.database), board.url()],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert restarted.stdin is not None and restarted.stdout is not None
        idle = json.loads(restarted.stdout.readline() or "null")
        assert idle is not None, restarted.communicate()[1]
        # nothing to answer: the polls read the thread, the bot posts nothing and loads none of these
        assert idle["sent"] == 0 and idle["reads"] == ["unchanged"] * 3
        unused = ONLY_TO_POST + ONLY_FOR_THE_PAGE + ONLY_FOR_CLOCKS
        assert [m for m in idle["modules"] if m.startswith(unused)] == []
        board.post("dice1d6=")  # a player writes: the bot answers, loading what posting needs then
        restarted.stdin.write("written\n")
        restarted.stdin.flush()
        answered = json.loads(restarted.stdout.readline() or "null")
        assert answered is not None, restarted.communicate()[1]
        assert answered["sent"] == 1 and set(ONLY_TO_POST) <= set(answered["modules"])
        assert [m for m in answered["modules"] if m.startswith(ONLY_FOR_CLOCKS)] == []  # dice: no clock
    finally:
        restarted.communicate(timeout=60)
    assert restarted.returncode == 0
    assert len([p for p in board.posts() if p.trip == BOT_TRIP]) == 2


def test_a_dice_table_has_no_apscheduler_and_its_day_end_is_the_poll_due_then(
    board: LocalBoard, tmp_path: Path
) -> None:
    # Polled less often than once a day: the day's end (its key published) is what wakes the poll.
    game = GameConfig("g", "dice", board.url(), poll_seconds=200_000, idle_seconds=200_000)
    runner = Runner(BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"), [game], REGISTRY)
    try:
        assert runner.scheduler is None
        poll = runner._poll(runner.bots[0])
        board.wait_for(lambda: (poll(0.0, 0.0), any(p.trip == BOT_TRIP for p in board.posts()))[1])
        started, now = time.monotonic(), datetime.now(JST)
        following = poll(started, started)
        assert runner.bots[0].next_event() == next_disclosure(now)
        day_end = started + (next_disclosure(now) - now).total_seconds()
        assert abs(following - day_end) < 5 and following < started + 200_000
    finally:
        runner.stop()


def test_a_game_on_the_clock_has_its_next_moment_as_an_apscheduler_job_that_wakes_its_poll(
    board: LocalBoard, tmp_path: Path
) -> None:
    scenario = tmp_path / "guess.toml"
    scenario.write_text('players = ["アリス", "ボブ"]\n', "utf-8")
    clocked = GameConfig(
        "guess",
        "guess",
        board.url(),
        scenario=scenario,
        schedule={"times": ["21:00"], "reminders": ["30m"]},
        gm_trips=(GM_TRIP,),
        dice=False,
    )
    runner = Runner(BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"), [clocked], REGISTRY)
    runner.start()
    try:
        assert isinstance(runner.scheduler, BackgroundScheduler) and runner.scheduler.running
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))  # the game's opening
        board.wait_for(lambda: runner._clock_jobs.get("guess") == runner.bots[0].next_event())
        job = runner.scheduler.get_job("guess/clock")
        assert job.next_run_time == runner.bots[0].next_event() and job.next_run_time > datetime.now(JST)
        assert job.func == runner.loop.wake and job.args == ("guess",)
    finally:
        runner.stop()


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
