"""Rollover's choice of what ends in the old thread: the link to the next part always fits there, and a
report begun in the old thread ends there only when the room left holds its rest *and* the link."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from poster.outbox import OutboxSender
from poster.pacing import Pacer
from poster.rollover import Rollover
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import Store

JST = timezone(timedelta(hours=9))
NOW = datetime(2026, 11, 29, 21, 0, tzinfo=JST)
OLD = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")


class Writer:
    def __init__(self) -> None:
        self.threads: list[tuple[str, str]] = []

    def new_thread(self, ref: ThreadRef, title: str, body: str) -> WriteOutcome:
        self.threads.append((title, body))
        return WriteOutcome("posted", key="1795960000")

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:  # never reached: nothing is sent here
        raise AssertionError("rollover only queues; the outbox sends")


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "bot.sqlite")
    opened.ensure_thread(OLD.id, OLD.read_url, "2ch", "g")
    # A period report of three posts: the first is out in the old thread, two are owed.
    for index in range(3):
        opened.queue(f"g/report/{index}", OLD.id, "resolution", f"【ピリオド1 更新】その{index + 1}", NOW)
    opened.mark_sent(["g/report/0"], NOW, 900)
    yield opened
    opened.close()


def roll(store: Store, free: int) -> tuple[list[str], list[str]]:
    writer = Writer()
    sender = OutboxSender(store, writer, lambda: NOW, lambda post: False, Pacer(0))
    what, target, _ = Rollover("g", store, writer, sender).open_next(
        OLD, "数当て", NOW, old_writable=True, free=free
    )
    assert target is not None, what
    old = [row.id for row in store.outbox(OLD.id, ["pending"])]
    new = [row.id for row in store.outbox(target.id, ["pending"])]
    return old, new


def test_a_begun_report_ends_in_the_old_thread_when_its_rest_and_the_link_fit(store: Store) -> None:
    old, new = roll(store, free=3)  # two owed parts + the link
    assert old == ["g/report/1", "g/report/2", "g/1795954933/next/0"]
    assert new == []


def test_without_room_for_the_link_too_the_rest_goes_whole_to_the_new_thread(store: Store) -> None:
    old, new = roll(store, free=2)  # the two owed parts would fit, but then the link would not
    assert old == ["g/1795954933/next/0"]
    assert new == ["g/report/1", "g/report/2"]
