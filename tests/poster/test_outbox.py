"""The outbox's decisions on each answer of the board, with a stand-in writer (the board is in the
scheduler tests): what is resent and when, how long a troubled board rests, what a refusal holds."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from poster.markup import PostLimits
from poster.outbox import LANDING_TIME, MAX_REST, SendResult
from poster.writer import WriteOutcome
from store.db import Store
from tests.poster.outbox_support import JST, REF, T0, TOO_LONG, Writer, sender


def test_a_board_in_trouble_gets_longer_rests_and_nothing_is_sent_unread(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    trouble = WriteOutcome("uncertain", "the board answered HTTP 504", retry_after=60)
    writer = Writer(trouble, trouble, WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    store.queue("b", REF.id, "dice", ">>6\ndice1d6=4 (4)", clock[0])

    def poll(seconds: int) -> int:
        clock[0] += timedelta(seconds=seconds)
        outbox.reconcile(REF.id)  # each poll reads the thread first; the post is never there
        return outbox.send(REF, REF.id, 6, lambda n: True).sent

    assert poll(0) == 0 and writer.sent == [">>5\ndice1d6=3 (3)"]  # "b" waits behind "a"
    assert poll(59) == 0 and len(writer.sent) == 1  # unconfirmed: looked for, not sent again
    assert poll(1) == 0 and len(writer.sent) == 2  # a minute on: judged lost, sent again, 504 again
    assert poll(119) == 0 and len(writer.sent) == 2  # the second rest is two minutes
    assert poll(1) == 2  # "a" goes at last, "b" right after it
    assert writer.sent[-2:] == [">>5\ndice1d6=3 (3)", ">>6\ndice1d6=4 (4)"]


def test_rests_stop_growing_at_an_hour(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    trouble = WriteOutcome("uncertain", "the board answered HTTP 502", retry_after=60)
    writer = Writer(*[trouble] * 12)
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    for _ in range(12):
        clock[0] += MAX_REST
        outbox.reconcile(REF.id)
        outbox.send(REF, REF.id, 6, lambda n: True)
    assert len(writer.sent) == 12  # one attempt an hour, never given up
    (row,) = store.outbox(REF.id, ["sending"])
    assert datetime.fromisoformat(row.not_before) - clock[0] == MAX_REST


def test_a_retry_without_a_stated_wait_rests_a_minute(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("retry", "the board said to wait, but not how long"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 0
    (row,) = store.outbox(REF.id, ["pending"])
    assert datetime.fromisoformat(row.not_before) - clock[0] == timedelta(seconds=60)
    clock[0] += timedelta(seconds=59)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 0 and len(writer.sent) == 1
    clock[0] += timedelta(seconds=1)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 1


def test_a_post_the_board_asked_to_send_later_goes_then_whoever_wrote_meanwhile(store: Store) -> None:
    # only a 連続投稿 refusal waits for someone else's post; "later" and a lost answer do not
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("retry", "サーバが混んでいます", retry_after=30), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: False)
    clock[0] += timedelta(seconds=30)
    assert outbox.send(REF, REF.id, 6, lambda n: False).sent == 1


def test_a_row_the_board_asked_to_hold_stops_the_send_and_says_when_to_wake(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    later = clock[0] + timedelta(seconds=45)
    store.queue("a", REF.id, "dice", ">>5\nx", clock[0])
    store.queue("b", REF.id, "dice", ">>6\ny", clock[0])
    store.mark_unsent("b", "サーバが混んでいます", not_before=later)
    result = outbox.send(REF, REF.id, 6, lambda n: True)
    assert result == SendResult(
        sent=1, waiting=f"the board asked to wait until {later.isoformat()}", wake_at=later
    )


def test_a_post_refused_whole_goes_in_its_parts_and_a_part_refused_alone_is_dropped(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [T0]
    refused = WriteOutcome("rejected", TOO_LONG)
    writer = Writer(refused, WriteOutcome("posted"), refused, WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    for name in "abc":
        store.queue(name, REF.id, "dice", f">>{name}", T0)
    first = outbox.send(REF, REF.id, 8, lambda n: True, PostLimits())
    assert first == SendResult(waiting=f"refused as one post: {TOO_LONG}", wake_at=T0)
    assert writer.sent == [">>a\n\n>>b\n\n>>c"] and len(store.outbox(REF.id, ["pending"])) == 3
    assert f"{REF.id}: outbox ['a', 'b', 'c']: rejected ({TOO_LONG})" in caplog.messages
    for _ in range(3):
        clock[0] += timedelta(seconds=11)
        outbox.send(REF, REF.id, 8, lambda n: True, PostLimits())
    assert writer.sent[1:] == [">>a", ">>b", ">>c"]  # each alone; "b" the board refuses even so
    assert (store.outbox_item("b").state, store.outbox_item("b").last_error) == ("dropped", TOO_LONG)
    assert [row.state for row in map(store.outbox_item, "ac")] == ["sent", "sent"]
    assert writer.threads == [REF] * 4


def test_trouble_without_a_stated_end_rests_twice_as_long_each_time_up_to_an_hour(store: Store) -> None:
    clock = [T0]
    busy = WriteOutcome("retry", "混雑しています", retry_after=600, backoff=True)
    outbox = sender(store, Writer(*[busy] * 5), clock)
    store.queue("a", REF.id, "dice", ">>5", T0)
    rests = []
    for _ in range(5):
        result = outbox.send(REF, REF.id, 6, lambda n: True)
        assert result.waiting == "混雑しています"
        rests.append(result.wake_at - clock[0])
        clock[0] = result.wake_at
    assert rests == [timedelta(seconds=s) for s in (600, 1200, 2400, 3600, 3600)]


def test_what_stops_a_send_after_a_post_went_is_said_with_the_post_counted(store: Store) -> None:
    clock = [T0]
    gone = WriteOutcome("closed", "このスレッドは停止されてます")
    lost = WriteOutcome("uncertain", "no answer", retry_after=30)
    outbox = sender(store, Writer(WriteOutcome("posted"), gone, WriteOutcome("posted"), lost), clock)
    for name in "ab":
        store.queue(name, REF.id, "dice", f">>{name}", T0)
    assert outbox.send(REF, REF.id, 6, lambda n: True) == SendResult(
        sent=1, closed="このスレッドは停止されてます"
    )
    assert store.outbox_item("b").state == "pending"  # owed still: it goes to the next thread
    store.queue("c", REF.id, "dice", ">>c", T0)
    assert outbox.send(REF, REF.id, 6, lambda n: True) == SendResult(
        sent=1, waiting="unconfirmed: no answer", wake_at=T0 + LANDING_TIME
    )
    assert store.outbox_item("c").not_before == (T0 + timedelta(seconds=30)).isoformat()  # as the board said


def test_a_refusal_for_posting_in_a_row_waits_for_a_post_after_the_last_one_read(store: Store) -> None:
    clock = [T0]
    asked: list[int] = []
    writer = Writer(WriteOutcome("wait_for_others", "連続投稿ですか？？"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5", T0)
    outbox.send(REF, REF.id, 9, lambda n: True)

    def others_after(number: int) -> bool:
        asked.append(number)
        return number < 9

    result = outbox.send(REF, REF.id, 9, others_after)
    assert result == SendResult(waiting="連続投稿: waiting for someone else to write") and asked == [9]
    assert outbox.send(REF, REF.id, 10, lambda n: n == 9).sent == 1


def test_two_rows_refused_as_one_post_are_sent_apart_and_each_row_keeps_why_it_waits(store: Store) -> None:
    clock = [T0]
    answers = [
        WriteOutcome("rejected", TOO_LONG),
        WriteOutcome("wait_for_others", "連続投稿ですか？？"),
        WriteOutcome("retry", "混雑", retry_after=5),
        WriteOutcome("uncertain", "no answer"),
        WriteOutcome("closed", "停止されてます"),
    ]
    outbox = sender(store, Writer(*answers), clock, pace=10)
    store.queue("a", REF.id, "dice", ">>a", T0)
    store.queue("b", REF.id, "dice", ">>b", T0)
    outbox.send(REF, REF.id, 8, lambda n: True, PostLimits())
    assert [(row.id, row.state, row.last_error) for row in store.outbox(REF.id, ["pending"])] == [
        ("a", "pending", TOO_LONG),
        ("b", "pending", TOO_LONG),
    ]
    clock[0] += timedelta(seconds=11)
    held = outbox.send(REF, REF.id, 8, lambda n: False, PostLimits())
    assert (
        held == SendResult(waiting="連続投稿ですか？？")
        and store.outbox_item("a").last_error == "連続投稿ですか？？"
    )
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 9, lambda n: True, PostLimits())
    assert store.outbox_item("a").last_error == "混雑"
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 9, lambda n: True, PostLimits())
    assert store.outbox_item("a").last_error == "no answer"
    clock[0] += LANDING_TIME
    outbox.reconcile(REF.id)
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 9, lambda n: True, PostLimits())
    assert store.outbox_item("a").last_error == "停止されてます"
