"""A game's log as the referee sees it during one poll: what the store holds, plus what the referee has
decided so far, as one read-only view; and the decisions themselves, in order, for the store to apply
in one transaction.

The store is read through `GameLogReader` (the store implements it); nothing is written until the bot
applies `Ledger.changes`. Each change is `(operation, arguments)`, named after the store method that
carries it out, so the referee never imports the store and the store never imports the engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from engine.report import Report


@dataclass(frozen=True)
class OrderRow:
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
class LogRow:
    kind: str
    args: dict
    period: int | None
    post: int | None
    thread_id: str | None
    author: str | None
    at: str


@dataclass(frozen=True)
class ResolutionRow:
    game_id: str
    period: int
    state: str
    outbox_id: str
    resolved_at: str
    orders: int


@dataclass(frozen=True)
class PeriodRow:
    game_id: str
    period: str
    commitment: str
    committed_in: str | None
    revealed_in: str | None


@dataclass(frozen=True)
class Outgoing:
    """Reports to post together: `base` makes the outbox ids of the posts (`base/0`, `base/1`…)."""

    base: str
    kind: str
    reports: tuple[Report, ...]


class GameLogReader(Protocol):
    def orders(
        self, game_id: str, period: int | None = None, statuses: Iterable[str] | None = None
    ) -> list[Any]: ...
    def log_entries(self, game_id: str, kinds: Iterable[str] | None = None) -> list[Any]: ...
    def resolution(self, game_id: str, period: int) -> Any | None: ...
    def last_resolution(self, game_id: str) -> Any | None: ...
    def periods(self, game_id: str) -> list[Any]: ...
    def game_status(self, game_id: str) -> str: ...
    def game_started(self, game_id: str) -> datetime | None: ...
    def post(self, thread_id: str, number: int) -> Any | None: ...


def _order_row(record: Any) -> OrderRow:
    return OrderRow(**{name: getattr(record, name) for name in OrderRow.__dataclass_fields__})


def _log_row(record: Any) -> LogRow:
    values = {name: getattr(record, name) for name in LogRow.__dataclass_fields__}
    if isinstance(values["args"], str):
        values["args"] = json.loads(values["args"])
    return LogRow(**values)


class Ledger:
    """The game's log during one poll (stored rows overlaid with this poll's decisions)."""

    def __init__(self, reader: GameLogReader, game_id: str) -> None:
        self.reader = reader
        self.game_id = game_id
        self.changes: list[tuple[str, dict[str, Any]]] = []
        self._orders: list[OrderRow] = []
        self._order_status: dict[tuple[str, int, int], tuple[str, str]] = {}
        self._log: list[LogRow] = []
        self._resolutions: dict[int, ResolutionRow | None] = {}  # None: deleted in this poll
        self._periods: dict[str, PeriodRow] = {}
        self._status: str | None = None
        self._started: datetime | None = None

    # -- reading ---------------------------------------------------------------------------------

    def orders(self, period: int | None = None, statuses: Iterable[str] | None = None) -> list[OrderRow]:
        wanted = set(statuses) if statuses is not None else None
        stored = [_order_row(r) for r in self.reader.orders(self.game_id, period)]
        known = {(o.thread_id, o.post, o.line) for o in stored}
        fresh = [o for o in self._orders if (o.thread_id, o.post, o.line) not in known]
        rows = []
        for order in stored + [o for o in fresh if period is None or o.period == period]:
            override = self._order_status.get((order.thread_id, order.post, order.line))
            if override is not None:
                order = replace(order, status=override[0], reason=override[1])
            if wanted is None or order.status in wanted:
                rows.append(order)
        return sorted(rows, key=lambda o: (o.thread_id, o.post, o.line))

    def log_entries(self, kinds: Iterable[str] | None = None) -> list[LogRow]:
        wanted = list(kinds) if kinds is not None else None
        stored = [_log_row(r) for r in self.reader.log_entries(self.game_id, wanted)]
        return stored + [e for e in self._log if wanted is None or e.kind in wanted]

    def resolution(self, period: int) -> ResolutionRow | Any | None:
        if period in self._resolutions:
            return self._resolutions[period]
        return self.reader.resolution(self.game_id, period)

    def last_resolution(self) -> ResolutionRow | Any | None:
        # Resolutions are contiguous from period 1 (巻き戻し drops only the last): walk down from the top.
        stored = self.reader.last_resolution(self.game_id)
        top = max([stored.period if stored is not None else 0, *self._resolutions])
        for period in range(top, 0, -1):
            row = self.resolution(period)
            if row is not None:
                return row
        return None

    def periods(self) -> list[PeriodRow | Any]:
        rows = {row.period: row for row in self.reader.periods(self.game_id)}
        rows.update(self._periods)
        return [rows[key] for key in sorted(rows)]

    def period(self, name: str) -> PeriodRow | Any | None:
        return next((row for row in self.periods() if row.period == name), None)

    def status(self) -> str:
        return self._status if self._status is not None else self.reader.game_status(self.game_id)

    def started(self) -> datetime | None:
        return self._started if self._started is not None else self.reader.game_started(self.game_id)

    def post(self, thread_id: str, number: int) -> Any | None:
        return self.reader.post(thread_id, number)

    # -- a step that fails alone ------------------------------------------------------------------

    def mark(self) -> tuple:
        """Where the decisions stand now, for `restore` to go back to when a step fails half-way."""
        return (
            len(self.changes),
            len(self._orders),
            dict(self._order_status),
            len(self._log),
            dict(self._resolutions),
            dict(self._periods),
            self._status,
            self._started,
        )

    def restore(self, mark: tuple) -> None:
        """Forget every decision made since `mark`, as if the failed step had never begun."""
        changes, orders, order_status, log, resolutions, periods, self._status, self._started = mark
        del self.changes[changes:], self._orders[orders:], self._log[log:]
        self._order_status, self._resolutions, self._periods = (
            dict(order_status),
            dict(resolutions),
            dict(periods),
        )

    # -- deciding --------------------------------------------------------------------------------

    def _change(self, operation: str, **arguments: Any) -> None:
        self.changes.append((operation, arguments))

    def save_orders(self, rows: Iterable[OrderRow]) -> None:
        rows = list(rows)
        known = {(o.thread_id, o.post, o.line) for o in self._orders}
        self._orders += [row for row in rows if (row.thread_id, row.post, row.line) not in known]
        self._change("save_orders", rows=[asdict(row) for row in rows])

    def set_order_status(self, order: OrderRow, status: str, reason: str = "") -> None:
        self._order_status[(order.thread_id, order.post, order.line)] = (status, reason)
        self._change(
            "set_order_status",
            game_id=order.game_id,
            thread_id=order.thread_id,
            post=order.post,
            line=order.line,
            status=status,
            reason=reason,
        )

    def log(self, kind: str, args: dict, at: datetime, **where: Any) -> None:
        entry = {"period": None, "post": None, "thread_id": None, "author": None} | where
        self._log.append(LogRow(kind, args, at=at.isoformat(), **entry))
        self._change("log", game_id=self.game_id, kind=kind, args=args, at=at, **where)

    def save_resolution(self, row: ResolutionRow) -> None:
        self._resolutions[row.period] = row
        self._change("save_resolution", row=asdict(row))

    def delete_resolution(self, period: int) -> None:
        self._resolutions[period] = None
        self._change("delete_resolution", game_id=self.game_id, period=period)

    def set_status(self, status: str) -> None:
        self._status = status
        self._change("set_game_status", game_id=self.game_id, status=status)

    def set_started(self, at: datetime) -> None:
        self._started = at
        self._change("set_game_started", game_id=self.game_id, started_at=at)

    def save_period(self, row: PeriodRow) -> None:
        self._periods[row.period] = row
        self._change("save_period", row=asdict(row))

    def mark_handled(self, thread_id: str, numbers: list[int]) -> None:
        self._change("mark_handled", thread_id=thread_id, numbers=numbers)

    def send(self, outgoing: Outgoing) -> None:
        """A report to post; the bot renders it under the board's limits and queues each part."""
        self._change("post", outgoing=outgoing)
