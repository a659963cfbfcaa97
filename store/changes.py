"""The changes a poll decides, one small frozen class per kind, in the store's own records: the referee
builds them (it imports these as types), the poster turns each report into `Queue` rows, and
`Store.apply` carries them out in one transaction, each by its type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from store.records import OrderRecord, PeriodRecord, ResolutionRecord


@dataclass(frozen=True)
class SaveOrders:
    """Orders read from posts (an order already stored under the same post and line is kept)."""

    rows: tuple[OrderRecord, ...]


@dataclass(frozen=True)
class SetOrderStatus:
    """An order accepted, refused, superseded, withdrawn or voided, with the reason."""

    game_id: str
    thread_id: str
    post: int
    line: int
    status: str
    reason: str = ""


@dataclass(frozen=True)
class Log:
    """An entry of the game's log (GM actions, readiness, answers given…)."""

    game_id: str
    kind: str
    args: dict[str, Any]
    at: datetime
    period: int | None = None
    post: int | None = None
    thread_id: str | None = None
    author: str | None = None


@dataclass(frozen=True)
class SaveResolution:
    """A period resolved (or an immediate game's step): the state after it and its report's outbox id."""

    row: ResolutionRecord


@dataclass(frozen=True)
class DeleteResolution:
    """A period undone (巻き戻し)."""

    game_id: str
    period: int


@dataclass(frozen=True)
class SetGameStatus:
    game_id: str
    status: str


@dataclass(frozen=True)
class SetGameStarted:
    game_id: str
    started_at: datetime


@dataclass(frozen=True)
class SavePeriod:
    """A period's key commitment, and where it was committed and revealed."""

    row: PeriodRecord


@dataclass(frozen=True)
class MarkHandled:
    """Posts the referee has answered: never read again as new."""

    thread_id: str
    numbers: tuple[int, ...] = field(default=())


@dataclass(frozen=True)
class Queue:
    """One post to send (once: the same id queued again is ignored)."""

    outbox_id: str
    thread_id: str
    kind: str
    body: str
    now: datetime


Change = (
    SaveOrders
    | SetOrderStatus
    | Log
    | SaveResolution
    | DeleteResolution
    | SetGameStatus
    | SetGameStarted
    | SavePeriod
    | MarkHandled
    | Queue
)
