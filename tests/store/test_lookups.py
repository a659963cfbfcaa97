"""The polls' lookups (`Store.thread`, `Store.owes`) read what was last committed on a connection of
their own: another thread's transaction — its commit's fsync included — never holds them up, and
they never see its writes before it commits; inside a thread's own transaction they see its writes."""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path

from engine.keys import JST
from store.db import Store

THREAD = "http://example.jp/test/read.cgi/test/1700000000/"
NOW = datetime(2026, 12, 2, 1, 0, tzinfo=JST)


def test_lookups_see_the_last_commit_and_wait_for_no_writer(tmp_path: Path) -> None:
    store = Store(tmp_path / "bot.sqlite")
    try:
        store.ensure_thread("t", THREAD, "2ch", "g")
        inside, release = threading.Event(), threading.Event()
        seen_inside: list[object] = []

        def writer() -> None:
            with store.transaction():
                store.set_thread_status("t", "closed", "full")
                store.queue("o1", "t", "answer", "本文", NOW)
                seen_inside.extend([store.thread("t").status, store.owes("t")])  # its own writes
                inside.set()
                release.wait(10)

        writing = threading.Thread(target=writer)
        writing.start()
        try:
            assert inside.wait(10)
            # while the transaction is open (the store's lock held): the lookups answer at once,
            # with what was committed before it
            looked: list[object] = []
            reader = threading.Thread(
                target=lambda: looked.extend([store.thread("t").status, store.owes("t")])
            )
            reader.start()
            reader.join(5)
            assert not reader.is_alive() and looked == ["active", False]
        finally:
            release.set()
            writing.join(10)
        assert seen_inside == ["closed", True]
        assert store.thread("t").status == "closed" and store.owes("t")  # committed: seen by all
    finally:
        store.close()


def test_an_in_memory_store_reads_on_its_one_connection() -> None:
    store = Store(":memory:")
    try:
        store.ensure_thread("t", THREAD, "2ch", "g")
        with store.transaction():
            store.queue("o1", "t", "answer", "本文", NOW)
            assert store.owes("t")
        assert store.thread("t").status == "active" and store.owes("t")
    finally:
        store.close()
