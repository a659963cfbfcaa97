"""The outbox table: what the bot owes a thread, and how far each post got (pending → sending → sent).

A row the board said it wrote is `sent` with sent_number 0 (`UNSEEN`) until the thread shows it, then
with its number; one never shown goes back to pending (`poster.outbox`). Rows sent together as one post form a batch: they go `sending` together under the first row's id,
with the post's text, so that looking for the post after a lost answer finds all of them or none.

The SQL is written once, at module level: each query says what it reads, and the columns a change
writes are keyword names (SQLite reads names in any case, so spelling them out as strings in every
call only made room for differences that are none).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from sqlite_utils import Database

from store.records import OutboxRecord

Ids = str | Sequence[str]
UNSEEN = 0  # sent_number of a post the board said it wrote and the thread has not shown yet (no post is 0)

_ROW = "select * from outbox where id = ?"
_NEXT_SEQ = "select coalesce(max(seq), 0) + 1 from outbox where thread_id = ?"
_IN_STATES = "select * from outbox where thread_id = ? and state in ({marks}) order by seq"
_OWES = (
    "select 1 from outbox where thread_id = ? and state in ('pending', 'sending') union all "
    "select 1 from outbox indexed by outbox_unseen where thread_id = ? and state = 'sent' and sent_number = 0 "
    "limit 1"
)
_UNSEEN = (
    "select * from outbox indexed by outbox_unseen where thread_id = ? and state = 'sent' and sent_number = 0 "
    "order by seq"
)
_PENDING = "select * from outbox where thread_id = ? and state = 'pending' order by seq"
_LAST_SENT = "select thread_id, max(sent_at) from outbox where state = 'sent' group by thread_id"


def _ids(ids: Ids) -> list[str]:
    return [ids] if isinstance(ids, str) else list(ids)


class _Transactional(Protocol):
    db: Database
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]: ...

    def lookup(self, sql: str, args: list) -> tuple | None: ...


def _next_seq(db: Database, thread_id: str) -> int:
    return db.execute(_NEXT_SEQ, [thread_id]).fetchone()[0]


def _outbox_record(row: dict) -> OutboxRecord:
    names = OutboxRecord.__dataclass_fields__
    return OutboxRecord(**{key: value for key, value in row.items() if key in names})


class OutboxTable:
    """The outbox half of `Store` (a mix-in: the store owns the connection and the transactions)."""

    def queue(
        self: _Transactional, outbox_id: str, thread_id: str, kind: str, body: str, now: datetime
    ) -> bool:
        """Add a post to send, once: the same id queued again is ignored. Returns whether it was new."""
        if list(self.db.query(_ROW, [outbox_id])):
            return False
        seq = _next_seq(self.db, thread_id)
        row = dict(
            id=outbox_id, thread_id=thread_id, seq=seq, kind=kind, body=body, created_at=now.isoformat()
        )
        self.db["outbox"].insert(row)
        return True

    def outbox(
        self: _Transactional, thread_id: str, states: Iterable[str] = ("pending", "sending")
    ) -> list[OutboxRecord]:
        wanted = list(states)
        with self._lock:
            query = _IN_STATES.format(marks=", ".join("?" for _ in wanted))
            return [_outbox_record(row) for row in self.db.query(query, [thread_id, *wanted])]

    def owes(self: _Transactional, thread_id: str) -> bool:
        """Whether anything is left to send or to settle — a post the board said it wrote and the
        thread has not shown yet included (two index lookups in one read: idle polls ask it)."""
        return self.lookup(_OWES, [thread_id, thread_id]) is not None

    def unseen(self: _Transactional, thread_id: str) -> list[OutboxRecord]:
        """Rows the board said it wrote that the thread has not shown yet, in order."""
        with self._lock:
            return [_outbox_record(row) for row in self.db.query(_UNSEEN, [thread_id])]

    def outbox_item(self: _Transactional, outbox_id: str) -> OutboxRecord:
        with self._lock:
            return _outbox_record(self.db["outbox"].get(outbox_id))

    def mark_sending(
        self: _Transactional,
        ids: Ids,
        after_number: int,
        *,
        settle_after: datetime | None = None,
        body: str | None = None,
    ) -> None:
        """Committed before the request leaves: after a crash, a `sending` row means "look first".
        `settle_after`: not to be judged lost before then (a slow board may still be writing it).
        Several ids go as one post, whose text is `body` (also for one row whose post adds to it); every
        row of it keeps the first id as its batch (a row sent alone: its own) and the post's text."""
        batch = _ids(ids)
        with self.transaction():
            for outbox_id in batch:
                item = self.db["outbox"].get(outbox_id)
                after = item["after_number"] if item["state"] == "sending" else after_number
                settle = settle_after.isoformat() if settle_after else None
                change = dict(
                    state="sending", attempts=item["attempts"] + 1, after_number=after, not_before=settle
                )
                self.db["outbox"].update(outbox_id, change | dict(batch=batch[0], sent_body=body))

    def mark_sent(
        self: _Transactional,
        ids: Ids,
        now: datetime,
        number: int | None = None,
        *,
        look_until: datetime | None = None,
    ) -> None:
        """Written: at post `number` when the thread showed it; with `look_until`, on the board's word
        alone — UNSEEN until the thread shows it, judged never written after `look_until`."""
        with self.transaction():
            for outbox_id in _ids(ids):
                change = dict(state="sent", sent_at=now.isoformat(), sent_number=number, last_error=None)
                if look_until is not None:
                    change |= dict(sent_number=UNSEEN, not_before=look_until.isoformat())
                self.db["outbox"].update(outbox_id, change)

    def mark_unconfirmed(
        self: _Transactional, ids: Ids, error: str, *, not_before: datetime | None = None
    ) -> None:
        """Sent, but the board's answer did not say whether it was written: stays `sending` until the
        thread is read, and is not judged lost (nor sent again) before `not_before`."""
        with self.transaction():
            for outbox_id in _ids(ids):
                settle = not_before.isoformat() if not_before else None
                self.db["outbox"].update(outbox_id, dict(last_error=error, not_before=settle))

    def mark_unsent(
        self: _Transactional,
        ids: Ids,
        error: str,
        *,
        not_before: datetime | None = None,
        wait_after: int = 0,
    ) -> None:
        """The board refused or could not be reached: back to pending, with when to try again."""
        with self.transaction():
            for outbox_id in _ids(ids):
                again = not_before.isoformat() if not_before else None
                change = dict(state="pending", last_error=error, not_before=again, wait_after=wait_after)
                self.db["outbox"].update(outbox_id, change | dict(batch=None, sent_body=None))

    def retarget_outbox(
        self: _Transactional,
        old_thread: str,
        new_thread: str,
        rewrite: Callable[[str], str],
        *,
        keep: Sequence[str] = (),
    ) -> int:
        """Move what was not sent to a thread's successor (inside the caller's transaction), all but
        the ids in `keep`, each body through `rewrite` (its references must now name the old thread).
        Returns how many moved."""
        moved = 0
        for row in list(self.db.query(_PENDING, [old_thread])):
            if row["id"] in keep:
                continue
            change = dict(thread_id=new_thread, body=rewrite(row["body"]), seq=_next_seq(self.db, new_thread))
            self.db["outbox"].update(row["id"], change | dict(wait_after=0))
            moved += 1
        return moved

    def last_sent(self: _Transactional) -> Iterator[tuple[str, str]]:
        """Each thread's newest sent post time (thread id, ISO time): where the bot last wrote."""
        with self._lock:
            yield from self.db.execute(_LAST_SENT).fetchall()

    def drop(self: _Transactional, outbox_id: str, error: str) -> None:
        with self.transaction():
            self.db["outbox"].update(outbox_id, dict(state="dropped", last_error=error))
