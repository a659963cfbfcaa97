"""A game's history as the engine can tell it again: its setup from the configuration and the store
(read only), the thread it plays in now, and every resolved period with its `Report`, the state after
it and the orders that made it — folded again from the log with `engine.referee.refold`, so that a
wiki export says exactly what the thread was told.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.config import GameConfig
from engine.keys import JST
from engine.referee import Game, GameSetup, Ledger, Outgoing, ThreadView, refold
from engine.report import Report
from engine.ruleset import Registry
from scraper.refs import ThreadRef
from store.db import OrderRecord, Store
from store.reads import game_record


@dataclass(frozen=True)
class Period:
    """One resolved period: its number, the report posted for it, the state after it (the ruleset's
    own type), the orders it took (accepted ones; their text is public once the period is resolved)."""

    number: int
    report: Report | None  # None for an immediate game's step (its answer is told by the post)
    state: Any
    orders: tuple[OrderRecord, ...]
    resolved_at: str


def setup_of(
    game: GameConfig, registry: Registry, store: Store, read_text: Callable[[Any], str]
) -> GameSetup | None:
    """The game's setup as the bot builds it, or None when the store has never seen the game."""
    record = game_record(store, game.id)
    if record is None:
        return None
    scenario = read_text(game.scenario) if game.scenario else None
    return GameSetup.configured(game, registry.get(game.rules), record.secret, record.created_at, scenario)


def thread_of(store: Store, game: GameConfig) -> ThreadView:
    """The thread the game plays in now: after a rollover, the newest one it opened."""
    threads = store.threads_of_game(game.id)
    ref = ThreadRef.from_url(threads[-1].url if threads else game.thread)
    return ThreadView(ref.id, ref.key, ref.read_url)


def game_now(setup: GameSetup, thread: ThreadView, store: Store, now: datetime | None = None) -> Game:
    return Game(setup, thread, Ledger(store, setup.id), now or datetime.now(JST))


def periods(setup: GameSetup, thread: ThreadView, store: Store, now: datetime | None = None) -> list[Period]:
    """Every resolved period, its report computed again from the log (the stored snapshots are not
    trusted for it; `refold` raises LookupError when a step's post has left the store)."""
    game = game_now(setup, thread, store, now)
    ruleset = setup.ruleset
    stored = {}
    last = game.book.last_resolution()
    for number in range(1, (last.period if last else 0) + 1):
        row = game.book.resolution(number)
        if row is not None:
            stored[number] = row
    states = refold(game)
    reports = [
        report
        for change in game.book.changes
        if isinstance(change, Outgoing) and change.kind == "resolution"
        for report in change.reports
    ]
    out = []
    for index, number in enumerate(sorted(states)):
        state = ruleset.state_from_dict(json.loads(states[number]))
        orders = tuple(store.orders(setup.id, number, ["accepted"])) if not ruleset.immediate else ()
        report = reports[index] if not ruleset.immediate and index < len(reports) else None
        out.append(Period(number, report, state, orders, stored[number].resolved_at))
    return out


def state_at(setup: GameSetup, store: Store, period: int | None = None) -> tuple[Any, int]:
    """The stored state after `period` (default: the last resolved), or the scenario's before any;
    with the period it is the state after (0: none resolved)."""
    ruleset = setup.ruleset
    row = store.last_resolution(setup.id) if period is None else store.resolution(setup.id, period)
    if period is not None and period > 0 and row is None:
        raise LookupError(f"ピリオド{period}はまだ処理されていません")
    if row is None:
        return ruleset.initial_state(setup.scenario), 0
    return ruleset.state_from_dict(json.loads(row.state)), row.period
