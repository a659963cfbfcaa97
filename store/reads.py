"""Read-only questions the game page and the export ask of the store, beside `db.py`'s own reads:
a game's record without creating it, and the posts the bot has sent, by kind. Nothing here writes.
"""

from __future__ import annotations

from datetime import datetime

from store.db import GameRecord, OutboxRecord, Store, _record


def game_record(store: Store, game_id: str) -> GameRecord | None:
    """The game as stored, or None when the bot has never run it (`Store.game` would create it)."""
    with store._lock:
        rows = list(store.db["games"].rows_where("id = ?", [game_id]))
    if not rows:
        return None
    row = rows[0]
    return GameRecord(
        row["id"], row["ruleset"], bytes.fromhex(row["secret"]), datetime.fromisoformat(row["created_at"])
    )


def sent_posts(store: Store, game_id: str, kinds: tuple[str, ...] | None = None) -> list[OutboxRecord]:
    """What the bot has posted for a game (every thread it played in), in the order it was sent."""
    threads = [
        row["id"] for row in store.db["threads"].rows_where("game_id = ?", [game_id], order_by="rowid")
    ]
    if not threads:
        return []
    where = f"thread_id in ({', '.join('?' for _ in threads)}) and state = 'sent'"
    args: list[str] = list(threads)
    if kinds is not None:
        where += f" and kind in ({', '.join('?' for _ in kinds)})"
        args += list(kinds)
    with store._lock:
        rows = store.db["outbox"].rows_where(where, args, order_by="sent_at, seq")
        return [_record(OutboxRecord, row) for row in rows]  # type: ignore[misc]


def is_sent(store: Store, outbox_id: str) -> bool:
    with store._lock:
        rows = list(store.db["outbox"].rows_where("id = ? and state = 'sent'", [outbox_id], select="id"))
    return bool(rows)


def unsent_count(store: Store, game_id: str) -> int:
    """Posts the bot still owes a game (pending or being sent)."""
    with store._lock:
        return store.db.execute(
            "select count(*) from outbox where state in ('pending', 'sending') and thread_id in "
            "(select id from threads where game_id = ?)",
            [game_id],
        ).fetchone()[0]


def change_mark(store: Store, game_id: str) -> str:
    """A mark that changes whenever what the game page shows may have: posts sent, orders taken,
    periods resolved, the game's status."""
    with store._lock:
        row = store.db.execute(
            "select (select count(*) from outbox where state = 'sent' and thread_id in "
            "(select id from threads where game_id = ?)),"
            " (select count(*) || ':' || coalesce(max(rowid), 0) from orders where game_id = ?),"
            " (select coalesce(max(period), 0) || ':' || coalesce(max(resolved_at), '') from resolutions"
            " where game_id = ?),"
            " (select coalesce(status, '') || ':' || coalesce(started_at, '') from games where id = ?),"
            " (select count(*) from game_log where game_id = ?)",
            [game_id] * 5,
        ).fetchone()
    return "|".join(str(value) for value in row)


def history_mark(store: Store, game_id: str) -> str:
    """A mark that changes when a period is resolved (or undone) or the GM's log moves: what the
    game's history, folded again, depends on."""
    with store._lock:
        row = store.db.execute(
            "select (select count(*) || ':' || coalesce(max(period), 0) || ':' || coalesce(max(resolved_at), '')"
            " from resolutions where game_id = ?), (select count(*) from game_log where game_id = ?)",
            [game_id, game_id],
        ).fetchone()
    return "|".join(str(value) for value in row)
