"""A game's log as the referee sees it during one poll: what the store holds, plus what the referee has
decided so far, as one read-only view; and the decisions themselves, in order, for the store to apply
in one transaction.

The store is read through `GameLogReader` (the store implements it); nothing is written until the bot
applies `Ledger.changes`. The rows are the store's own records and each change one of the store's
typed changes (`store.changes`), imported here as types only: the referee never calls the store, and
the store never imports the engine. A report to post is an `Outgoing`, which the poster renders into
the store's `Queue` rows under the board's limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

from engine.report import Outgoing
from store.changes import (
    Change,
    DeleteResolution,
    Log,
    MarkHandled,
    SaveOrders,
    SavePeriod,
    SaveResolution,
    SetGameStarted,
    SetGameStatus,
    SetOrderStatus,
)
from store.records import LogRecord, OrderRecord, PeriodRecord, ResolutionRecord


class GameLogReader(Protocol):
    def orders(
        self, game_id: str, period: int | None = None, statuses: Iterable[str] | None = None
    ) -> list[OrderRecord]: ...
    def log_entries(self, game_id: str, kinds: Iterable[str] | None = None) -> list[LogRecord]: ...
    def resolution(self, game_id: str, period: int) -> ResolutionRecord | None: ...
    def last_resolution(self, game_id: str) -> ResolutionRecord | None: ...
    def periods(self, game_id: str) -> list[PeriodRecord]: ...
    def game_status(self, game_id: str) -> str: ...
    def game_started(self, game_id: str) -> datetime | None: ...
    def post(self, thread_id: str, number: int) -> Any | None: ...
    def poster_ids(self, thread_id: str) -> dict[int, str]: ...


class Ledger:
    """The game's log during one poll (stored rows overlaid with this poll's decisions)."""

    def __init__(self, reader: GameLogReader, game_id: str) -> None:
        self.reader = reader
        self.game_id = game_id
        self.changes: list[Change | Outgoing] = []
        self._orders: list[OrderRecord] = []
        self._order_status: dict[tuple[str, int, int], tuple[str, str]] = {}
        self._log: list[LogRecord] = []
        self._resolutions: dict[int, ResolutionRecord | None] = {}  # None: deleted in this poll
        self._periods: dict[str, PeriodRecord] = {}
        self._status: str | None = None
        self._started: datetime | None = None

    # -- reading ---------------------------------------------------------------------------------

    def orders(self, period: int | None = None, statuses: Iterable[str] | None = None) -> list[OrderRecord]:
        wanted = set(statuses) if statuses is not None else None
        stored = list(self.reader.orders(self.game_id, period))
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

    def log_entries(self, kinds: Iterable[str] | None = None) -> list[LogRecord]:
        wanted = list(kinds) if kinds is not None else None
        stored = list(self.reader.log_entries(self.game_id, wanted))
        return stored + [e for e in self._log if wanted is None or e.kind in wanted]

    def resolution(self, period: int) -> ResolutionRecord | None:
        if period in self._resolutions:
            return self._resolutions[period]
        return self.reader.resolution(self.game_id, period)

    def last_resolution(self) -> ResolutionRecord | None:
        # Resolutions are contiguous from period 1 (巻き戻し drops only the last): walk down from the top.
        stored = self.reader.last_resolution(self.game_id)
        top = max([stored.period if stored is not None else 0, *self._resolutions])
        for period in range(top, 0, -1):
            row = self.resolution(period)
            if row is not None:
                return row
        return None

    def periods(self) -> list[PeriodRecord]:
        rows = {row.period: row for row in self.reader.periods(self.game_id)}
        rows.update(self._periods)
        return [rows[key] for key in sorted(rows)]

    def period(self, name: str) -> PeriodRecord | None:
        return next((row for row in self.periods() if row.period == name), None)

    def status(self) -> str:
        return self._status if self._status is not None else self.reader.game_status(self.game_id)

    def started(self) -> datetime | None:
        return self._started if self._started is not None else self.reader.game_started(self.game_id)

    def post(self, thread_id: str, number: int) -> Any | None:
        return self.reader.post(thread_id, number)

    def poster_ids(self, thread_id: str) -> dict[int, str]:
        """The board's ID beside each stored post of a thread, by number ("" where it shows none)."""
        return self.reader.poster_ids(thread_id)

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

    def save_orders(self, rows: Iterable[OrderRecord]) -> None:
        rows = tuple(rows)
        known = {(o.thread_id, o.post, o.line) for o in self._orders}
        self._orders += [row for row in rows if (row.thread_id, row.post, row.line) not in known]
        self.changes.append(SaveOrders(rows))

    def set_order_status(self, order: OrderRecord, status: str, reason: str = "") -> None:
        self._order_status[(order.thread_id, order.post, order.line)] = (status, reason)
        self.changes.append(
            SetOrderStatus(order.game_id, order.thread_id, order.post, order.line, status, reason)
        )

    def log(self, kind: str, args: dict, at: datetime, **where: Any) -> None:
        entry = Log(self.game_id, kind, args, at, **where)
        self._log.append(
            LogRecord(
                0,
                self.game_id,
                kind,
                args,
                entry.period,
                entry.post,
                entry.thread_id,
                entry.author,
                at.isoformat(),
            )
        )
        self.changes.append(entry)

    def save_resolution(self, row: ResolutionRecord) -> None:
        self._resolutions[row.period] = row
        self.changes.append(SaveResolution(row))

    def delete_resolution(self, period: int) -> None:
        self._resolutions[period] = None
        self.changes.append(DeleteResolution(self.game_id, period))

    def set_status(self, status: str) -> None:
        self._status = status
        self.changes.append(SetGameStatus(self.game_id, status))

    def set_started(self, at: datetime) -> None:
        self._started = at
        self.changes.append(SetGameStarted(self.game_id, at))

    def save_period(self, row: PeriodRecord) -> None:
        self._periods[row.period] = row
        self.changes.append(SavePeriod(row))

    def mark_handled(self, thread_id: str, numbers: list[int]) -> None:
        self.changes.append(MarkHandled(thread_id, tuple(numbers)))

    def send(self, outgoing: Outgoing) -> None:
        """A report to post; the bot renders it under the board's limits and queues each part."""
        self.changes.append(outgoing)
