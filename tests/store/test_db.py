"""The store: schema migration, what a read records, the outbox's order and exactly-once queueing."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from store.db import PeriodRecord, PostRecord, Store
from store.schema import MIGRATIONS

NOW = datetime.fromisoformat("2026-11-29T21:00:00+09:00")


def fresh(tmp_path: Path) -> Store:
    store = Store(tmp_path / "t.sqlite")
    store.ensure_thread("T", "http://x/test/read.cgi/b/1700000000/", "2ch", "g")
    return store


def test_schema_is_created_once_and_migrations_are_recorded(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"threads", "posts", "outbox", "games", "periods"} <= set(store.db.table_names())
    store.close()
    again = Store(tmp_path / "t.sqlite")  # opening again migrates nothing and loses nothing
    assert again.thread("T").url.endswith("/1700000000/")


def test_a_read_records_posts_once_and_keeps_handled_and_own_on_a_reread(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    posts = [
        PostRecord("T", 1, "名無し", body="一"),
        PostRecord("T", 2, "ボット", trip="abcdefghij", body="二"),
    ]
    new = store.record_fetch(
        "T",
        size=10,
        last_modified=None,
        last_number=2,
        posts=posts,
        now=NOW,
        is_own=lambda p: p.trip == "abcdefghij",
    )
    assert [(p.number, p.own, p.handled) for p in new] == [(1, False, False), (2, True, True)]
    assert [p.number for p in store.unhandled_posts("T")] == [1]
    with store.transaction():
        store.mark_handled("T", [1])
    reread = [PostRecord("T", 1, deleted=True), PostRecord("T", 2, "ボット", trip="abcdefghij", body="二")]
    assert store.record_fetch("T", size=8, last_modified=None, last_number=2, posts=reread, now=NOW) == []
    first = store.post("T", 1)
    assert first.deleted and first.handled  # a deletion never brings a post back to be answered
    assert store.thread("T").size == 8


def test_system_and_deleted_posts_are_never_to_answer(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    posts = [
        PostRecord("T", 1000, body="x"),
        PostRecord("T", 1001, system=True),
        PostRecord("T", 999, deleted=True),
    ]
    store.record_fetch("T", size=1, last_modified=None, last_number=1001, posts=posts, now=NOW)
    assert [p.number for p in store.unhandled_posts("T")] == [1000]


def test_activity_is_the_last_post_of_someone_else(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    store.record_fetch(
        "T",
        size=1,
        last_modified=None,
        last_number=1,
        posts=[PostRecord("T", 1, trip="bot")],
        now=NOW,
        is_own=lambda p: p.trip == "bot",
    )
    assert store.thread("T").active_at is None
    later = NOW + timedelta(seconds=5)
    store.record_fetch("T", size=2, last_modified=None, last_number=2, posts=[PostRecord("T", 2)], now=later)
    assert store.thread("T").active_at == later.isoformat()


def test_the_outbox_queues_each_id_once_and_keeps_order(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    with store.transaction():
        assert store.queue("a", "T", "answer", "一つ目", NOW)
        assert store.queue("b", "T", "answer", "二つ目", NOW)
        assert not store.queue("a", "T", "answer", "一つ目（再）", NOW)
    assert [row.body for row in store.outbox("T")] == ["一つ目", "二つ目"]
    store.mark_sending("a", after_number=5)
    store.mark_sending("a", after_number=9)  # a retry keeps the number of the first attempt
    row = store.outbox_item("a")
    assert (row.state, row.attempts, row.after_number) == ("sending", 2, 5)
    store.mark_unsent("a", "samba", not_before=NOW + timedelta(seconds=10))
    assert store.outbox_item("a").state == "pending" and store.outbox_item("a").not_before
    store.mark_sent("a", NOW, 7)
    store.drop("b", "本文が長すぎます")
    assert store.outbox("T") == []
    assert store.outbox_item("a").sent_number == 7 and store.outbox_item("b").state == "dropped"


def test_a_game_keeps_its_secret_and_join_time(tmp_path: Path) -> None:
    store = fresh(tmp_path)
    first = store.game("g", "dice", "T", NOW)
    again = store.game("g", "dice", "T", NOW + timedelta(days=3))
    assert first == again and len(first.secret) == 32 and first.created_at == NOW
    with store.transaction():
        store.save_period(PeriodRecord("g", "2026-11-29", "ab" * 32, "out/0", None))
    assert store.period("g", "2026-11-29").committed_in == "out/0"
    assert store.period("g", "2026-11-30") is None


def test_a_transaction_inside_another_commits_with_the_outer_one(tmp_path: Path) -> None:
    store = fresh(tmp_path)

    class Crash(Exception):
        pass

    try:
        with store.transaction():
            store.queue("a", "T", "answer", "外", NOW)
            with store.transaction():
                store.queue("b", "T", "answer", "内", NOW)
            raise Crash
    except Crash:
        pass
    assert store.outbox("T") == []  # the inner one did not commit on its own


def test_an_old_database_is_migrated_forward(tmp_path: Path) -> None:
    import sqlite3

    from sqlite_utils import Database

    from store.schema import _initial

    path = tmp_path / "old.sqlite"
    db = Database(sqlite3.connect(path))
    with db.conn:
        _initial(db)
        db.conn.execute("PRAGMA user_version = 1")
        db["games"].insert(
            {
                "id": "g",
                "ruleset": "dice",
                "thread_id": "T",
                "secret": "00" * 32,
                "created_at": NOW.isoformat(),
            }
        )
    db.conn.close()
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.game_status("g") == "running"  # the new column got its default
    assert {"orders", "resolutions", "game_log"} <= set(store.db.table_names())


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_the_database_and_its_wal_files_are_for_their_owner_only(tmp_path: Path) -> None:
    # The database holds every game's secret seed: nobody else on the machine may read it, whatever
    # the umask of the process that made it.
    import os

    old = os.umask(0o022)
    try:
        store = fresh(tmp_path)
        store.game("g", "dice", "T", NOW)
        files = [tmp_path / name for name in ("t.sqlite", "t.sqlite-wal", "t.sqlite-shm")]
        assert all(path.exists() for path in files)
        assert {path.name: _mode(path) for path in files} == {path.name: 0o600 for path in files}
        store.close()
        legacy = tmp_path / "old.sqlite"  # made world-readable by an older threadgm
        Store(legacy).close()
        legacy.chmod(0o644)
        Store(legacy).close()
        assert _mode(legacy) == 0o600
    finally:
        os.umask(old)


def test_the_directories_made_for_the_database_are_for_their_owner_only(tmp_path: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        Store(tmp_path / "var" / "games" / "t.sqlite").close()
        assert _mode(tmp_path / "var") == 0o700 and _mode(tmp_path / "var" / "games") == 0o700
        tmp_path.chmod(0o755)
        Store(tmp_path / "u.sqlite").close()
        assert _mode(tmp_path) == 0o755  # a directory that was there is left alone
    finally:
        os.umask(old)


def test_no_sqlite_utils_plugin_of_the_environment_runs_on_the_store(tmp_path: Path) -> None:
    import sqlite3

    from sqlite_utils import hookimpl
    from sqlite_utils.plugins import pm

    class Plugin:
        @hookimpl
        def prepare_connection(self, conn: sqlite3.Connection) -> None:
            conn.create_function("planted", 0, lambda: 1)

    plugin = Plugin()
    pm.register(plugin)
    try:
        store = Store(tmp_path / "b.sqlite")
    finally:
        pm.unregister(plugin)
    try:
        with pytest.raises(sqlite3.OperationalError, match="no such function"):
            store.db.execute("select planted()")
    finally:
        store.close()
