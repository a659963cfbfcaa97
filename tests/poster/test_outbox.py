"""The outbox's decisions on each kind of answer, with a stand-in writer (the board is in the
scheduler tests): what is resent, when, and what waits for the thread to be read first."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from poster.outbox import MAX_REST, OutboxSender
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import Store

JST = timezone(timedelta(hours=9))
REF = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")


class Writer:
    def __init__(self, *outcomes: WriteOutcome) -> None:
        self.outcomes = list(outcomes)
        self.sent: list[str] = []

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:
        self.sent.append(body)
        return self.outcomes.pop(0)


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "bot.sqlite")
    opened.ensure_thread(REF.id, REF.read_url, "2ch", "g")
    yield opened
    opened.close()


def sender(store: Store, writer: Writer, clock: list[datetime]) -> OutboxSender:
    return OutboxSender(store, writer, lambda: clock[0], lambda post: False)


def test_a_board_in_trouble_gets_longer_rests_and_nothing_is_sent_unread(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    trouble = WriteOutcome("uncertain", "the board answered HTTP 504", retry_after=60)
    writer = Writer(trouble, trouble, WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    store.queue("b", REF.id, "dice", ">>6\ndice1d6=4 (4)", clock[0])

    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 0
    assert writer.sent == [">>5\ndice1d6=3 (3)"]  # "b" waits behind the unconfirmed "a"
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 0
    assert len(writer.sent) == 1  # still `sending`: the thread must be read before anything goes

    outbox.reconcile(REF.id)  # read: not there
    clock[0] += timedelta(seconds=59)
    assert outbox.send(REF, REF.id, 6, lambda n: True).waiting
    clock[0] += timedelta(seconds=1)
    outbox.send(REF, REF.id, 6, lambda n: True)  # 60 s later: sent again, 504 again
    assert len(writer.sent) == 2
    outbox.reconcile(REF.id)
    clock[0] += timedelta(seconds=119)
    outbox.send(REF, REF.id, 6, lambda n: True)
    assert len(writer.sent) == 2  # the second rest is 120 s
    clock[0] += timedelta(seconds=1)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 2  # "a" goes at last, "b" after it
    assert writer.sent[-2:] == [">>5\ndice1d6=3 (3)", ">>6\ndice1d6=4 (4)"]


def test_rests_stop_growing_at_an_hour(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    trouble = WriteOutcome("uncertain", "the board answered HTTP 502", retry_after=60)
    writer = Writer(*[trouble] * 12)
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    for _ in range(12):
        clock[0] += MAX_REST
        outbox.send(REF, REF.id, 6, lambda n: True)
        outbox.reconcile(REF.id)
    assert len(writer.sent) == 12  # one attempt an hour, never given up
    (row,) = store.outbox(REF.id, ["pending"])
    assert datetime.fromisoformat(row.not_before) - clock[0] == MAX_REST


def test_a_timeout_is_read_then_resent_at_once(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("uncertain", "no answer from the board"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: True)
    outbox.reconcile(REF.id)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 1
