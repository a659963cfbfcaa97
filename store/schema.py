"""The SQLite schema, created and migrated by the code: `PRAGMA user_version` counts the steps taken.

A step is only ever appended, never edited: a database made by an older threadgm is brought forward
by running the steps it has not seen, each in its own transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from sqlite_utils import Database


def _initial(db: Database) -> None:
    db["threads"].create(
        {
            "id": str,  # canonical read URL
            "url": str,
            "dialect": str,
            "game_id": str,
            "size": int,  # 2ch dat bytes held
            "last_modified": str,
            "last_number": int,
            "status": str,  # active | closed | gone
            "status_note": str,
            "res_max": int,
            "checked_at": str,
            "active_at": str,  # when a post of someone else last arrived
        },
        pk="id",
        defaults={"size": 0, "last_number": 0, "status": "active", "status_note": "", "res_max": 1000},
    )
    db["posts"].create(
        {
            "thread_id": str,
            "number": int,
            "name": str,
            "trip": str,
            "mail": str,
            "date": str,  # ISO 8601 with +09:00, or NULL
            "poster_id": str,
            "body": str,
            "raw": str,
            "title": str,
            "deleted": int,
            "system": int,
            "own": int,  # written by the bot
            "handled": int,  # its commands have been answered (or it had none)
            "seen_at": str,
        },
        pk=("thread_id", "number"),
        defaults={"deleted": 0, "system": 0, "own": 0, "handled": 0},
    )
    db["posts"].create_index(["thread_id", "handled"])
    db["outbox"].create(
        {
            "id": str,  # deterministic: the same work always gets the same id
            "thread_id": str,
            "seq": int,  # order of sending within the thread
            "kind": str,
            "body": str,
            "state": str,  # pending | sending | sent | dropped
            "attempts": int,
            "not_before": str,  # ISO time before which it must not be sent (samba)
            "wait_after": int,  # post number: wait until someone else writes after it (連投)
            "after_number": int,  # the thread's last number when the sending started
            "sent_number": int,
            "last_error": str,
            "created_at": str,
            "sent_at": str,
        },
        pk="id",
        defaults={"state": "pending", "attempts": 0, "wait_after": 0, "after_number": 0},
    )
    db["outbox"].create_index(["thread_id", "state", "seq"])
    db["games"].create(
        {"id": str, "ruleset": str, "thread_id": str, "secret": str, "created_at": str},
        pk="id",
    )
    db["periods"].create(
        {
            "game_id": str,
            "period": str,
            "commitment": str,  # SHA-256 of the period key, hex
            "committed_in": str,  # outbox id of the post that published the commitment
            "revealed_in": str,  # outbox id of the post that published the key
        },
        pk=("game_id", "period"),
    )


def _periods(db: Database) -> None:
    """Games that run on the clock: orders, resolutions, and the GM's log."""
    db["orders"].create(
        {
            "game_id": str,
            "thread_id": str,
            "post": int,
            "line": int,
            "author": str,
            "player": str,
            "period": int,
            "text": str,  # the line as written
            "canonical": str,
            "order_key": str,
            "status": str,  # accepted | rejected | superseded | cancelled | voided
            "reason": str,
            "written_at": str,
            "receipt": str,  # outbox id of the receipt that listed it
        },
        pk=("game_id", "thread_id", "post", "line"),
        defaults={"status": "accepted", "reason": ""},
    )
    db["orders"].create_index(["game_id", "period", "status"])
    db["resolutions"].create(
        {
            "game_id": str,
            "period": int,
            "state": str,  # the state after the period, as JSON (a cache: it can be folded again)
            "outbox_id": str,  # the report
            "resolved_at": str,
            "orders": int,
        },
        pk=("game_id", "period"),
    )
    db["game_log"].create(
        {
            "id": int,
            "game_id": str,
            "kind": str,  # pause | resume | extend | resolve_now | early | void | rollback | set | reveal | next | status | refused | ready
            "args": str,  # JSON
            "period": int,
            "post": int,
            "thread_id": str,
            "author": str,
            "at": str,
        },
        pk="id",
    )
    db["game_log"].create_index(["game_id", "kind"])
    db["games"].add_column("status", str, not_null_default="running")
    db["games"].add_column("started_at", str)


def _batches(db: Database) -> None:
    """Answers that waited for the board's pace go out together: the rows of one post."""
    db["outbox"].add_column("batch", str)  # the first row's id, on every row of a post of several
    db["outbox"].add_column("sent_body", str)  # that post's text


def _unseen(db: Database) -> None:
    """A post the board said it wrote is `sent` with sent_number 0 until the thread shows it: idle
    polls ask whether a thread has one, so that question is one lookup in an index of those rows."""
    db.execute(
        "create index if not exists outbox_unseen on outbox(thread_id) where state = 'sent' and sent_number = 0"
    )


MIGRATIONS: list[Callable[[Database], None]] = [_initial, _periods, _batches, _unseen]


def migrate(db: Database) -> int:
    """Bring the database to the newest schema; returns the version it is at."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    for step, apply in enumerate(MIGRATIONS[version:], start=version + 1):
        conn: sqlite3.Connection = db.conn
        with conn:
            apply(db)
            conn.execute(f"PRAGMA user_version = {step}")
    return len(MIGRATIONS)
