"""A board that says 書きこみました for a post it never writes (a filter, a failing disk, a cache in
front of it): the row counts as sent on the board's word, but the thread must show it. Shown, it keeps
its number; not shown within SEEN_WITHIN (doubling with each send of the row), it is sent again —
once the window is over, never before, so a post the board shows late is never posted twice."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from poster.outbox import MAX_REST, SEEN_WITHIN, OutboxSender
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from store.db import PostRecord, Store
from store.outbox import UNSEEN
from tests.poster.outbox_support import REF, T0, Writer


def sender(store: Store, writer: Writer, clock: list) -> OutboxSender:
    # the bot knows its posts by what it sent (and its trip); here, by its name
    return OutboxSender(store, writer, lambda: clock[0], lambda post: post.name == "ボット", Pacer(0))


BODY = ">>5\ndice1d6=3 (3)"


def _read(store: Store, number: int, body: str, now) -> None:
    post = PostRecord(REF.id, number, name="ボット", body=body)
    store.record_fetch(REF.id, size=0, last_modified=None, last_number=number, posts=[post], now=now)


def _poll(outbox, clock, seconds: float, last: int) -> int:
    clock[0] += timedelta(seconds=seconds)
    outbox.reconcile(REF.id)
    return outbox.send(REF, REF.id, last, lambda n: True).sent


def test_a_post_the_thread_shows_keeps_its_number_and_owes_nothing(store: Store) -> None:
    clock = [T0]
    outbox = sender(store, Writer(WriteOutcome("posted")), clock)
    store.queue("a", REF.id, "dice", BODY, T0)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 1
    assert store.outbox_item("a").sent_number == UNSEEN and store.owes(REF.id)  # the thread is read next
    _read(store, 7, BODY, clock[0])
    _poll(outbox, clock, 5, 7)
    row = store.outbox_item("a")
    assert (row.state, row.sent_number, row.sent_at) == ("sent", 7, T0.isoformat())
    assert not store.owes(REF.id)


def test_a_post_the_board_never_wrote_is_sent_again_once_its_time_is_over(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [T0]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", BODY, T0)
    outbox.send(REF, REF.id, 6, lambda n: True)
    steps = int(SEEN_WITHIN.total_seconds() // 10) - 1
    for _ in range(steps):  # every read in its time: not there, not sent again
        assert _poll(outbox, clock, 10, 6) == 0 and len(writer.sent) == 1
    with caplog.at_level(logging.WARNING, logger="poster.outbox"):
        assert _poll(outbox, clock, 10, 6) == 1
    assert writer.sent == [BODY, BODY] and "never showed it" in caplog.text
    # the second send is given twice as long before it is judged lost too
    row = store.outbox_item("a")
    assert row.sent_number == UNSEEN and row.not_before == (clock[0] + 2 * SEEN_WITHIN).isoformat()
    _read(store, 8, BODY, clock[0])
    _poll(outbox, clock, 5, 8)
    assert store.outbox_item("a").sent_number == 8 and len(writer.sent) == 2


def test_a_post_the_board_shows_late_but_in_time_is_never_sent_twice(store: Store) -> None:
    clock = [T0]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", BODY, T0)
    store.queue("b", REF.id, "dice", ">>6\nok", T0)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 2
    assert _poll(outbox, clock, SEEN_WITHIN.total_seconds() - 1, 6) == 0  # not shown yet, still in time
    _read(store, 7, BODY, clock[0])
    _read(store, 8, ">>6\nok", clock[0])
    assert _poll(outbox, clock, 1, 8) == 0
    assert writer.sent == [BODY, ">>6\nok"]
    assert [store.outbox_item(i).sent_number for i in "ab"] == [7, 8]


def test_the_wait_for_a_post_of_a_troubled_row_stops_growing_at_an_hour(store: Store) -> None:
    clock = [T0]
    outbox = sender(store, Writer(*[WriteOutcome("posted")] * 12), clock)
    store.queue("a", REF.id, "dice", BODY, T0)
    for _ in range(12):
        outbox.send(REF, REF.id, 6, lambda n: True)
        clock[0] += MAX_REST
        outbox.reconcile(REF.id)
    row = store.outbox_item("a")
    assert row.attempts == 12 and row.state == "pending"  # never shown: sent again, an hour apart at most


def test_rows_sent_before_their_number_was_looked_for_are_left_alone(store: Store) -> None:
    # a database from before: posted rows carry no number, and none of them is looked for or owed
    store.queue("old", REF.id, "dice", BODY, T0)
    store.mark_sent("old", T0)
    assert store.outbox_item("old").sent_number is None
    assert not store.owes(REF.id) and store.unseen(REF.id) == []
