"""The referee: a pure function from a game's log, the posts just read and the time to the decisions
of one poll — orders taken with their receipt, dice and step answers, GM commands, reminders, the
periods resolved with their reports (each with its outbox id) and a move to another thread.

`poll` reads the store only through the `Ledger`'s read-only view and writes nothing: the bot applies
`Ledger.changes` (the store's typed changes, `store.changes`) in one transaction, after rendering each
`Outgoing` report under the board's limits into `Queue` rows.
The same code answers the bot's polls and the CLI's tools. No post can stop a game: each post's
step, each GM command and each period's clock runs `isolated` — an exception answers that post with
a short error (or holds that period until the GM's 設定, 巻き戻し or 無効) and the poll goes on.

| module | holds |
|---|---|
| `ledger.py` | the log's view during a poll, and the decisions as store operations |
| `game.py` | a game's setup, the period clock, the state before a period, missing players, keys |
| `posts.py` | the posts of a poll: dice, an immediate game's steps, orders and receipts, day keys |
| `gm.py` | GM commands: refusals, effects, 状態, 公開 |
| `clocked.py` | games on the clock: opening, reminders, early close, resolution, the end |
| `refold.py` | every stored state folded again from the log (snapshots are a cache) |
| `isolation.py` | a failing step is its post's problem: undone, logged, answered; a failing period held |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.referee.clocked import run_periods
from engine.referee.game import Game, GameSetup, PostView, ThreadView
from engine.referee.gm import reveal, status
from engine.referee.ledger import GameLogReader, Ledger, Outgoing
from engine.referee.posts import read_posts
from engine.referee.refold import refold
from store.changes import Change
from store.records import OrderRecord


@dataclass(frozen=True)
class Decisions:
    changes: list[Change | Outgoing]  # in order: the store's typed changes, and reports to post
    move_to: str | None = None  # a GM's 次スレ: the thread the game continues in


def poll(
    setup: GameSetup, thread: ThreadView, log: GameLogReader, posts: Sequence[PostView], now: datetime
) -> Decisions:
    """Everything one poll decides for a game: the posts read (in number order), then its clock."""
    game = Game(setup, thread, Ledger(log, setup.id), now)
    follow = read_posts(game, posts)
    if setup.clocked:
        run_periods(game)
    return Decisions(game.book.changes, follow)


def next_event(setup: GameSetup, thread: ThreadView, log: GameLogReader, now: datetime) -> datetime | None:
    """When the game's clock next needs a poll (a deadline or a reminder); `now` when it has not begun."""
    return Game(setup, thread, Ledger(log, setup.id), now).next_event()


__all__ = [
    "Decisions",
    "Game",
    "GameLogReader",
    "GameSetup",
    "Ledger",
    "OrderRecord",
    "Outgoing",
    "PostView",
    "ThreadView",
    "next_event",
    "poll",
    "refold",
    "reveal",
    "status",
]
