"""The outbox table: what the bot owes a thread, and how far each post got (pending → sending → sent).

Rows sent together as one post form a batch: they go `sending` together under the first row's id,
with the post's text, so that looking for the post after a lost answer finds all of them or none.
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


def _ids(ids: Ids) -> list[str]:
    return [ids] if isinstance(ids, str) else list(ids)


class _Transactional(Protocol):
    db: Database
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]: ...


def _outbox_record(row: dict) -> OutboxRecord:
    names = OutboxRecord.__dataclass_fields__
    return OutboxRecord(**{key: value for key, value in row.items() if key in names})


class OutboxTable:
    """The outbox half of `Store` (a mix-in: the store owns the connection and the transactions)."""

    def queue(
        self: _Transactional, outbox_id: str, thread_id: str, kind: str, body: str, now: datetime
    ) -> bool:
        """Add a post to send, once: the same id queued again is ignored. Returns whether it was new."""
        table = self.db["outbox"]
        if list(table.rows_where("id = ?", [outbox_id])):
            return False
        seq = self.db.execute(
            "select coalesce(max(seq), 0) + 1 from outbox where thread_id = ?", [thread_id]
        ).fetchone()[0]
        table.insert(
            {
                "id": outbox_id,
                "thread_id": thread_id,
                "seq": seq,
                "kind": kind,
                "body": body,
                "created_at": now.isoformat(),
            }
        )
        return True

    def outbox(
        self: _Transactional, thread_id: str, states: Iterable[str] = ("pending", "sending")
    ) -> list[OutboxRecord]:
        wanted = list(states)
        with self._lock:
            marks = ", ".join("?" for _ in wanted)
            rows = self.db["outbox"].rows_where(
                f"thread_id = ? and state in ({marks})", [thread_id, *wanted], order_by="seq"
            )
            return [_outbox_record(row) for row in rows]

    def owes(self: _Transactional, thread_id: str) -> bool:
        """Whether anything is left to send or to settle (one indexed read: idle polls ask it)."""
        with self._lock:
            return (
                self.db.execute(
                    "select 1 from outbox where thread_id = ? and state in ('pending', 'sending') limit 1",
                    [thread_id],
                ).fetchone()
                is not None
            )

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
        Several ids go as one post, whose text is `body` (also for one row whose post adds to it)."""
        batch = _ids(ids)
        with self.transaction():
            for outbox_id in batch:
                item = self.db["outbox"].get(outbox_id)
                after = item["after_number"] if item["state"] == "sending" else after_number
                self.db["outbox"].update(
                    outbox_id,
                    {
                        "state": "sending",
                        "attempts": item["attempts"] + 1,
                        "after_number": after,
                        "not_before": settle_after.isoformat() if settle_after else None,
                        "batch": batch[0] if len(batch) > 1 else None,
                        # a post that is not the row's own text (several rows, a notice added)
                        "sent_body": body
                        if body is not None and (len(batch) > 1 or body != item["body"])
                        else None,
                    },
                )

    def mark_sent(self: _Transactional, ids: Ids, now: datetime, number: int | None = None) -> None:
        with self.transaction():
            for outbox_id in _ids(ids):
                self.db["outbox"].update(
                    outbox_id,
                    {"state": "sent", "sent_at": now.isoformat(), "sent_number": number, "last_error": None},
                )

    def mark_unconfirmed(
        self: _Transactional, ids: Ids, error: str, *, not_before: datetime | None = None
    ) -> None:
        """Sent, but the board's answer did not say whether it was written: stays `sending` until the
        thread is read, and is not judged lost (nor sent again) before `not_before`."""
        with self.transaction():
            for outbox_id in _ids(ids):
                self.db["outbox"].update(
                    outbox_id,
                    {"last_error": error, "not_before": not_before.isoformat() if not_before else None},
                )

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
                self.db["outbox"].update(
                    outbox_id,
                    {
                        "state": "pending",
                        "last_error": error,
                        "not_before": not_before.isoformat() if not_before else None,
                        "wait_after": wait_after,
                        "batch": None,
                        "sent_body": None,
                    },
                )

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
        for row in self.db["outbox"].rows_where(
            "thread_id = ? and state = 'pending'", [old_thread], order_by="seq"
        ):
            if row["id"] in keep:
                continue
            seq = self.db.execute(
                "select coalesce(max(seq), 0) + 1 from outbox where thread_id = ?", [new_thread]
            ).fetchone()[0]
            self.db["outbox"].update(
                row["id"],
                {"thread_id": new_thread, "body": rewrite(row["body"]), "seq": seq, "wait_after": 0},
            )
            moved += 1
        return moved

    def last_sent(self: _Transactional) -> Iterator[tuple[str, str]]:
        """Each thread's newest sent post time (thread id, ISO time): where the bot last wrote."""
        with self._lock:
            yield from self.db.execute(
                "select thread_id, max(sent_at) from outbox where state = 'sent' group by thread_id"
            ).fetchall()

    def drop(self: _Transactional, outbox_id: str, error: str) -> None:
        with self.transaction():
            self.db["outbox"].update(outbox_id, {"state": "dropped", "last_error": error})
