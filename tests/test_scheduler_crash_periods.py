"""Crashes at every step of a period's resolution, over many seeded runs: each period is resolved
exactly once, reported once, with the same dice as a run that never crashed.

A crash is simulated in the process (a BaseException the bot never catches, raised at the chosen
step, after which the bot object and its database connection are thrown away, as SIGKILL would):
inside the resolution's transaction (before commit), after it committed, after the report's row was
marked `sending` but before the request left, and after the board accepted the post but before the
row was marked sent. `tests/test_scheduler_crash.py` does the same with a real SIGKILL.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import scheduler
from engine.rules import REGISTRY
from poster.writer import BoardWriter
from scraper.fetch import make_session
from store.changes import SaveResolution
from store.db import Store
from tests.test_scheduler_periods import Game

STEPS = ("before_commit", "after_commit", "before_send", "after_send")
SCRIPT = [  # (time, poster, text) then a tick; three periods of 数当て
    ("20:10:00", "アリス", "＜予想＞10"),
    ("20:20:00", "ボブ", "＜予想＞90"),
    ("21:02:00", None, None),
    ("21:10:00", "アリス", "＜予想＞55"),
    ("22:02:00", None, None),
    ("22:10:00", "ボブ", "＜予想＞33"),
    ("22:30:00", "アリス", "＜予想＞34"),
    ("23:02:00", None, None),
    ("23:05:00", None, None),
    ("23:06:00", None, None),
]


class Crash(BaseException):
    """Not an Exception: nothing in the bot may catch it, as nothing survives a SIGKILL."""


def resolution_posts(game: Game) -> list[str]:
    return [body for body in game.bot_posts() if re.match(r"【ピリオド\d+ 更新", body)]


def play(game: Game, on_tick: Callable[[int], None] | None = None) -> None:
    game.tick()
    for step, (at, who, text) in enumerate(SCRIPT):
        game.clock.at(at)
        if who is not None:
            game.post(text, name=who)
        if on_tick is not None:
            on_tick(step)
        try:
            game.tick()
        except Crash:
            restart(game)
            game.tick()  # the restarted bot catches up at once


def restart(game: Game) -> None:
    game.store.close()
    game.store = Store(game.store.path)
    game.bot = scheduler.ThreadBot(
        game.config, game.bot_config, game.store, make_session(), game.clock, registry=REGISTRY
    )


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[str]:
    game = Game(tmp_path_factory.mktemp("reference"), seed="crash-tests")
    try:
        play(game)
        return resolution_posts(game)
    finally:
        game.close()


def arm(monkeypatch, step: str) -> dict[str, bool]:
    """Make the next resolution crash at `step`, once."""
    fired = {"done": False}

    def is_report(body: str) -> bool:
        return bool(re.match(r"【ピリオド\d+ 更新", body))

    if step == "before_commit":
        original = Store.save_resolution

        def save(self, record):
            original(self, record)
            if not fired["done"] and "/P" in record.outbox_id:
                fired["done"] = True
                raise Crash

        monkeypatch.setattr(Store, "save_resolution", save)
    elif step == "after_commit":
        original_apply = Store.apply

        def apply(self, changes):
            changes = list(changes)
            queued = original_apply(self, changes)
            resolved = any(isinstance(change, SaveResolution) for change in changes)
            if resolved and not fired["done"]:
                fired["done"] = True
                raise Crash  # the poll's decisions, the resolution among them, are committed
            return queued

        monkeypatch.setattr(Store, "apply", apply)
    else:
        original_reply = BoardWriter.reply

        def reply(self, ref, body):
            if fired["done"] or not is_report(body):
                return original_reply(self, ref, body)
            fired["done"] = True
            if step == "before_send":
                raise Crash
            original_reply(self, ref, body)
            raise Crash

        monkeypatch.setattr(BoardWriter, "reply", reply)
    return fired


@pytest.mark.parametrize("seed", range(12))
def test_every_period_resolves_once_with_the_same_dice(
    seed: int, reference: list[str], tmp_path: Path, monkeypatch
) -> None:
    rng = random.Random(seed)
    step = STEPS[seed % len(STEPS)]
    crash_at = rng.choice([2, 4, 7])  # which update of the script the crash hits
    game = Game(tmp_path, seed="crash-tests")
    armed: list[dict[str, bool]] = []
    try:
        play(game, on_tick=lambda index: armed.append(arm(monkeypatch, step)) if index == crash_at else None)
        assert armed and armed[0]["done"], f"the crash at {step} never happened"
        reports = resolution_posts(game)
        numbers = [int(re.match(r"【ピリオド(\d+)", body)[1]) for body in reports]
        assert numbers == [1, 2, 3], numbers  # each period reported exactly once
        assert reports == reference  # and with the same dice and results as a run without a crash
        assert [r.period for r in (game.store.resolution("guess", n) for n in (1, 2, 3))] == [1, 2, 3]
    finally:
        game.close()
