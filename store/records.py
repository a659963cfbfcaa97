"""The records the store hands out: one frozen dataclass per table row, as the rest of threadgm reads it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class PostRecord:
    thread_id: str
    number: int
    name: str = ""
    trip: str | None = None
    mail: str = ""
    date: datetime | None = None
    poster_id: str = ""
    body: str = ""
    raw: str = ""
    title: str = ""
    deleted: bool = False
    system: bool = False
    own: bool = False
    handled: bool = False


@dataclass(frozen=True)
class ThreadRecord:
    id: str
    url: str
    dialect: str
    game_id: str
    size: int
    last_modified: str | None
    last_number: int
    status: str
    status_note: str
    res_max: int
    checked_at: str | None
    active_at: str | None


@dataclass(frozen=True)
class OutboxRecord:
    id: str
    thread_id: str
    seq: int
    kind: str
    body: str
    state: str
    attempts: int
    not_before: str | None
    wait_after: int
    after_number: int
    sent_number: int | None
    last_error: str | None
    created_at: str
    sent_at: str | None
    batch: str | None = None  # the post's first row's id, on every row it carried (None: never sent)
    sent_body: str | None = None  # that post's text, when the sender gave it


@dataclass(frozen=True)
class GameRecord:
    id: str
    ruleset: str
    secret: bytes
    created_at: datetime


@dataclass(frozen=True)
class OrderRecord:
    game_id: str
    thread_id: str
    post: int
    line: int
    author: str
    player: str
    period: int
    text: str
    canonical: str
    order_key: str
    status: str
    reason: str = ""
    written_at: str | None = None
    receipt: str | None = None


@dataclass(frozen=True)
class ResolutionRecord:
    game_id: str
    period: int
    state: str
    outbox_id: str
    resolved_at: str
    orders: int


@dataclass(frozen=True)
class LogRecord:
    id: int  # 0 for an entry decided in this poll and not stored yet
    game_id: str
    kind: str
    args: dict
    period: int | None
    post: int | None
    thread_id: str | None
    author: str | None
    at: str


@dataclass(frozen=True)
class PeriodRecord:
    game_id: str
    period: str
    commitment: str
    committed_in: str | None
    revealed_in: str | None
