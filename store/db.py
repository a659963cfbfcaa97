"""Every read and write of threadgm's SQLite database (through sqlite-utils, in WAL mode).

What the bot has seen (threads with their fetch state, posts as they came), what it owes (the
outbox), and the secrets it keeps (a game's seed, each period's commitment). Writes that belong
together happen in one `transaction()`: answering a post and queueing the answer are one step, so a
crash can neither lose an answer nor make a second one.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from datetime import datetime
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from store.changes import (
    Change,
    DeleteResolution,
    Log,
    MarkHandled,
    Queue,
    SaveOrders,
    SavePeriod,
    SaveResolution,
    SetGameStarted,
    SetGameStatus,
    SetOrderStatus,
)
from store.outbox import OutboxTable
from store.records import (
    GameRecord,
    LogRecord,
    OrderRecord,
    OutboxRecord,
    PeriodRecord,
    PostRecord,
    ResolutionRecord,
    ThreadRecord,
)
from store.schema import migrate

log = logging.getLogger(__name__)

__all__ = [
    "GameRecord",
    "LogRecord",
    "OrderRecord",
    "OutboxRecord",
    "PeriodRecord",
    "PostRecord",
    "ResolutionRecord",
    "Store",
    "ThreadRecord",
]


def _record(cls: type, row: dict) -> object:
    names = {f.name for f in fields(cls)}
    return cls(**{key: value for key, value in row.items() if key in names})


_THREAD_BY_ID = f"select {', '.join(f.name for f in fields(ThreadRecord))} from threads where id = ?"

OWNER_ONLY = 0o600  # the database holds every game's secret seed and each period's key
PRIVATE_DIRECTORY = 0o700  # and the directories made for it (var/): nobody else lists or enters them


def private_directory(path: str | Path) -> None:
    """Make `path` and whichever of its parents are missing for their owner alone (whatever the umask).
    Directories that already exist are left as they are: they may be a home or a working directory."""
    missing: list[Path] = []
    folder = Path(path)
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        folder.mkdir(mode=PRIVATE_DIRECTORY, exist_ok=True)
        os.chmod(folder, PRIVATE_DIRECTORY)


def _owner_only(path: str) -> None:
    """Create the database file for its owner alone before SQLite opens it (SQLite gives the -wal and
    -shm files the database's own mode), and take back what an older threadgm left readable."""
    if not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))
    for name in (path, f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        if os.path.exists(name) and os.stat(name).st_uid == os.getuid() and os.stat(name).st_mode & 0o077:
            os.chmod(name, OWNER_ONLY)


class Store(OutboxTable):
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            private_directory(Path(self.path).parent)
            _owner_only(self.path)
        conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        # No sqlite-utils plugin found in the environment runs on the bot's database (nor is every
        # installed package's metadata read at start to look for one: 0.6 MiB of the idle bot).
        self.db = Database(conn, execute_plugins=False)
        if self.path != ":memory:":
            self.db.enable_wal()
        self._lock = threading.RLock()
        self._depth = 0
        self._writer: int | None = None  # the thread inside `transaction()`
        migrate(self.db)
        # The polls' lookups (is the thread active, does it owe anything) have a connection of their
        # own: in WAL mode a reader never waits for a writer, so no idle poll waits out another
        # game's commit (an fsync: 10 ms on this machine, a few of them for each answer).
        self._reader = (
            sqlite3.connect(self.path, check_same_thread=False, timeout=30) if self.path != ":memory:" else None
        )
        self._reader_lock = threading.Lock()

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self.db.conn.close()

    def lookup(self, sql: str, args: list) -> tuple | None:
        """The first row of a read of one row at most, as last committed — except inside this
        thread's own transaction, which must see its own writes. (Every row is fetched: a statement
        stepped to its end holds no read snapshot open.)"""
        if self._reader is None or self._writer == threading.get_ident():
            with self._lock:
                rows = self.db.conn.execute(sql, args).fetchall()
        else:
            with self._reader_lock:
                rows = self._reader.execute(sql, args).fetchall()
        return rows[0] if rows else None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction; a transaction opened inside another joins it (commits with the outer one)."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._depth, self._writer = 1, threading.get_ident()
            try:
                # BEGIN now, so sqlite-utils' own atomic blocks inside become savepoints instead of
                # committing on their own
                with self.db.atomic():
                    yield
            finally:
                self._depth, self._writer = 0, None

    # -- threads ---------------------------------------------------------------------------------

    def ensure_thread(self, thread_id: str, url: str, dialect: str, game_id: str) -> ThreadRecord:
        with self.transaction():
            table = self.db["threads"]
            if not list(table.rows_where("id = ?", [thread_id])):
                table.insert({"id": thread_id, "url": url, "dialect": dialect, "game_id": game_id})
        return self.thread(thread_id)

    def thread(self, thread_id: str) -> ThreadRecord:
        """One read by the primary key (every poll asks it; sqlite-utils' `get` looks the table's
        keys up first, and cost twelve times the query)."""
        row = self.lookup(_THREAD_BY_ID, [thread_id])
        if row is None:
            raise NotFoundError(f"no thread {thread_id!r}")
        return ThreadRecord(*row)

    def threads_of_game(self, game_id: str) -> list[ThreadRecord]:
        with self._lock:
            rows = self.db["threads"].rows_where("game_id = ?", [game_id], order_by="rowid")
            return [_record(ThreadRecord, row) for row in rows]  # type: ignore[misc]

    def set_thread_status(self, thread_id: str, status: str, note: str = "") -> None:
        with self.transaction():
            self.db["threads"].update(thread_id, {"status": status, "status_note": note})

    def set_res_max(self, thread_id: str, res_max: int) -> None:
        with self.transaction():
            self.db["threads"].update(thread_id, {"res_max": res_max})

    def record_fetch(
        self,
        thread_id: str,
        *,
        size: int,
        last_modified: str | None,
        last_number: int,
        posts: Iterable[PostRecord],
        now: datetime,
        is_own: Callable[[PostRecord], bool] = lambda record: False,
    ) -> list[PostRecord]:
        """Store what a read brought; returns the posts that were new to the store.

        A post read again (a full read after a deletion) updates its content and deleted flag but
        keeps `handled` and `own`: a deletion never makes the bot answer a post twice. A whole read
        (from post 1) that shows another post at a held number — a line taken out, the posts after it
        moved up — gives a moved post its flags where it now is, and reads one never held as new. A
        partial read that shows a held post otherwise (the board's copy of a post held garbled) only
        updates it.
        """
        posts = list(posts)
        whole = bool(posts) and posts[0].number == 1
        fresh: list[PostRecord] = []
        stamp = now.isoformat()
        with self.transaction():
            table = self.db["posts"]
            known = {
                number: {"own": own, "handled": handled}
                for number, own, handled in self.db.execute(
                    "select number, own, handled from posts where thread_id = ?", [thread_id]
                ).fetchall()
            }
            someone_else = False
            held: _Held | None = None  # what the store holds, read if a read shows a number it holds
            for record in posts:
                row = _post_row(record, stamp)
                if record.number in known:
                    if held is None:
                        held = self._held_posts(thread_id)
                    previous = held.same_post(record.number, row) if whole else known[record.number]
                    if previous is not None:
                        row.update(own=previous["own"], handled=previous["handled"])
                        table.update((thread_id, record.number), row)
                        continue
                    log.warning(
                        "%s: post %d is not the post held there (the board renumbered the thread: "
                        "a post taken out?); read as a new post",
                        thread_id,
                        record.number,
                    )
                    table.delete((thread_id, record.number))
                own = bool(record.own or is_own(record))
                row.update(own=int(own), handled=int(own or record.deleted or record.system))
                table.insert(row)
                fresh.append(PostRecord(**{**record.__dict__, "own": own, "handled": bool(row["handled"])}))
                someone_else = someone_else or not own
            update = {
                "size": size,
                "last_modified": last_modified,
                "last_number": last_number,
                "checked_at": stamp,
            }
            if someone_else:
                update["active_at"] = stamp
            self.db["threads"].update(thread_id, update)
        return fresh

    def _held_posts(self, thread_id: str) -> _Held:
        query = "select number, name, date, body, deleted, own, handled from posts where thread_id = ?"
        return _Held(list(self.db.query(query, [thread_id])))

    # -- posts -----------------------------------------------------------------------------------

    def unhandled_posts(self, thread_id: str) -> list[PostRecord]:
        with self._lock:
            rows = self.db["posts"].rows_where(
                "thread_id = ? and handled = 0", [thread_id], order_by="number"
            )
            return [_post_record(row) for row in rows]

    def posts_after(self, thread_id: str, number: int) -> list[PostRecord]:
        with self._lock:
            rows = self.db["posts"].rows_where(
                "thread_id = ? and number > ?", [thread_id, number], order_by="number"
            )
            return [_post_record(row) for row in rows]

    def post(self, thread_id: str, number: int) -> PostRecord | None:
        with self._lock:
            rows = list(self.db["posts"].rows_where("thread_id = ? and number = ?", [thread_id, number]))
            return _post_record(rows[0]) if rows else None

    def poster_ids(self, thread_id: str) -> dict[int, str]:
        """The board's ID shown beside each stored post of a thread, by number ("" where none)."""
        with self._lock:
            rows = self.db.execute(
                "select number, poster_id from posts where thread_id = ?", [thread_id]
            ).fetchall()
        return {number: poster_id or "" for number, poster_id in rows}

    def mark_handled(self, thread_id: str, numbers: Iterable[int]) -> None:
        """Inside the caller's transaction, with the answer's outbox row."""
        for number in numbers:
            self.db["posts"].update((thread_id, number), {"handled": 1})

    def mark_own(self, thread_id: str, number: int) -> None:
        self.db["posts"].update((thread_id, number), {"own": 1, "handled": 1})

    # -- games and periods -----------------------------------------------------------------------

    def game(
        self, game_id: str, ruleset: str, thread_id: str, now: datetime, secret: bytes | None = None
    ) -> GameRecord:
        """The game, created on first use with a fresh secret seed and kept: a restart must roll the
        same dice, and answer only what was written after the game joined its thread."""
        with self.transaction():
            table = self.db["games"]
            rows = list(table.rows_where("id = ?", [game_id]))
            if not rows:
                row = {"id": game_id, "ruleset": ruleset, "thread_id": thread_id}
                row |= {
                    "secret": secret.hex() if secret else secrets.token_hex(32),
                    "created_at": now.isoformat(),
                }
                table.insert(row)
                rows = [row]
        row = rows[0]
        return GameRecord(
            row["id"], row["ruleset"], bytes.fromhex(row["secret"]), datetime.fromisoformat(row["created_at"])
        )

    def set_game_status(self, game_id: str, status: str) -> None:
        """Inside the caller's transaction (with the GM's log entry)."""
        self.db["games"].update(game_id, {"status": status})

    def game_status(self, game_id: str) -> str:
        with self._lock:
            return self.db["games"].get(game_id)["status"]

    def set_game_started(self, game_id: str, started_at: datetime) -> None:
        self.db["games"].update(game_id, {"started_at": started_at.isoformat()})

    def game_started(self, game_id: str) -> datetime | None:
        with self._lock:
            value = self.db["games"].get(game_id)["started_at"]
            return datetime.fromisoformat(value) if value else None

    # -- orders, resolutions and the GM's log -----------------------------------------------------

    def save_orders(self, rows: Iterable[OrderRecord]) -> None:
        """Inside the caller's transaction; a line read twice (a full re-read) is kept as first read."""
        table = self.db["orders"]
        for row in rows:
            table.insert(row.__dict__, pk=("game_id", "thread_id", "post", "line"), ignore=True)

    def orders(
        self, game_id: str, period: int | None = None, statuses: Iterable[str] | None = None
    ) -> list[OrderRecord]:
        where, args = ["game_id = ?"], [game_id]
        if period is not None:
            where.append("period = ?")
            args.append(period)
        if statuses is not None:
            wanted = list(statuses)
            where.append(f"status in ({', '.join('?' for _ in wanted)})")
            args.extend(wanted)
        with self._lock:
            rows = self.db["orders"].rows_where(" and ".join(where), args, order_by="thread_id, post, line")
            return [_record(OrderRecord, row) for row in rows]  # type: ignore[misc]

    def set_order_status(
        self, game_id: str, thread_id: str, post: int, line: int, status: str, reason: str = ""
    ) -> None:
        self.db["orders"].update((game_id, thread_id, post, line), {"status": status, "reason": reason})

    def resolution(self, game_id: str, period: int) -> ResolutionRecord | None:
        with self._lock:
            rows = list(self.db["resolutions"].rows_where("game_id = ? and period = ?", [game_id, period]))
            return _record(ResolutionRecord, rows[0]) if rows else None  # type: ignore[return-value]

    def last_resolution(self, game_id: str) -> ResolutionRecord | None:
        with self._lock:
            rows = list(
                self.db["resolutions"].rows_where("game_id = ?", [game_id], order_by="period desc", limit=1)
            )
            return _record(ResolutionRecord, rows[0]) if rows else None  # type: ignore[return-value]

    def save_resolution(self, record: ResolutionRecord) -> None:
        """Inside the caller's transaction, with the report's outbox row: a period resolves once."""
        self.db["resolutions"].insert(record.__dict__, pk=("game_id", "period"))

    def delete_resolution(self, game_id: str, period: int) -> None:
        self.db["resolutions"].delete((game_id, period))

    def log(
        self,
        game_id: str,
        kind: str,
        args: dict,
        at: datetime,
        *,
        period: int | None = None,
        post: int | None = None,
        thread_id: str | None = None,
        author: str | None = None,
    ) -> int:
        """Append to the game's log (inside the caller's transaction); returns the entry's id."""
        row = {
            "game_id": game_id,
            "kind": kind,
            "args": json.dumps(args, ensure_ascii=False),
            "period": period,
        }
        row |= {"post": post, "thread_id": thread_id, "author": author, "at": at.isoformat()}
        return self.db["game_log"].insert(row).last_pk

    def log_entries(self, game_id: str, kinds: Iterable[str] | None = None) -> list[LogRecord]:
        with self._lock:
            if kinds is None:
                rows = self.db["game_log"].rows_where("game_id = ?", [game_id], order_by="id")
            else:
                wanted = list(kinds)
                marks = ", ".join("?" for _ in wanted)
                rows = self.db["game_log"].rows_where(
                    f"game_id = ? and kind in ({marks})", [game_id, *wanted], order_by="id"
                )
            return [_log_record(row) for row in rows]

    def period(self, game_id: str, period: str) -> PeriodRecord | None:
        with self._lock:
            rows = list(self.db["periods"].rows_where("game_id = ? and period = ?", [game_id, period]))
            return _record(PeriodRecord, rows[0]) if rows else None  # type: ignore[return-value]

    def periods(self, game_id: str) -> list[PeriodRecord]:
        with self._lock:
            rows = self.db["periods"].rows_where("game_id = ?", [game_id], order_by="period")
            return [_record(PeriodRecord, row) for row in rows]  # type: ignore[misc]

    def save_period(self, record: PeriodRecord) -> None:
        """Inside the caller's transaction, with the post that publishes it."""
        self.db["periods"].upsert(record.__dict__, pk=("game_id", "period"))

    # -- the referee's decisions --------------------------------------------------------------------

    def apply(self, changes: Iterable[Change]) -> int:
        """Carry out a poll's decisions, in order, in one transaction, each by its type. Returns how
        many posts were newly queued."""
        queued = 0
        with self.transaction():
            for change in changes:
                queued += self._carry_out(change)
        return queued

    def _carry_out(self, change: Change) -> int:
        match change:
            case Queue(outbox_id, thread_id, kind, body, now):
                return int(self.queue(outbox_id, thread_id, kind, body, now))
            case SaveOrders(rows):
                self.save_orders(rows)
            case SetOrderStatus(game_id, thread_id, post, line, status, reason):
                self.set_order_status(game_id, thread_id, post, line, status, reason)
            case Log(game_id, kind, args, at, period, post, thread_id, author):
                self.log(
                    game_id, kind, args, at, period=period, post=post, thread_id=thread_id, author=author
                )
            case SaveResolution(row):
                self.save_resolution(row)
            case DeleteResolution(game_id, period):
                self.delete_resolution(game_id, period)
            case SetGameStatus(game_id, status):
                self.set_game_status(game_id, status)
            case SetGameStarted(game_id, started_at):
                self.set_game_started(game_id, started_at)
            case SavePeriod(row):
                self.save_period(row)
            case MarkHandled(thread_id, numbers):
                self.mark_handled(thread_id, numbers)
            case _:
                raise TypeError(f"not a change the store carries out: {change!r}")
        return 0


def _log_record(row: dict) -> LogRecord:
    return LogRecord(**{**_record(LogRecord, row).__dict__, "args": json.loads(row["args"])})  # type: ignore[arg-type]


class _Held:
    """A thread's posts as the store holds them, by number and by what they are (name, date, body)."""

    def __init__(self, rows: list[dict]) -> None:
        self.by_number = {row["number"]: row for row in rows}
        self.by_identity = {_identity(row): row for row in reversed(rows) if not row["deleted"]}

    def same_post(self, number: int, row: dict) -> dict | None:
        """The held post whose flags a post read at `number` keeps: the one held there when it is
        that post (or either is deleted: a deletion keeps the line), else the held post it is (moved
        up by a line taken out); None for a post the store never held."""
        there = self.by_number.get(number)
        if there is not None and (there["deleted"] or row["deleted"] or _identity(there) == _identity(row)):
            return there
        return self.by_identity.get(_identity(row))


def _identity(row: dict) -> tuple:
    return row["name"], row["date"], row["body"]


def _post_row(record: PostRecord, stamp: str) -> dict:
    row = dict(record.__dict__)
    row["date"] = record.date.isoformat() if record.date else None
    row.update(
        deleted=int(record.deleted),
        system=int(record.system),
        own=int(record.own),
        handled=int(record.handled),
    )
    row["seen_at"] = stamp
    return row


def _post_record(row: dict) -> PostRecord:
    values = {key: row[key] for key in PostRecord.__dataclass_fields__}
    values["date"] = datetime.fromisoformat(row["date"]) if row["date"] else None
    for flag in ("deleted", "system", "own", "handled"):
        values[flag] = bool(row[flag])
    return PostRecord(**values)
