"""The outbox table: what the bot still owes a thread, where it last wrote, and answers carried to the
next part of a thread in the order they were owed, free of the old thread's holds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from store.db import Store

JST = timezone(timedelta(hours=9))
NOW = datetime(2026, 11, 29, 21, 0, tzinfo=JST)


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "bot.sqlite")
    for thread in "XYZ":
        opened.ensure_thread(thread, f"http://example.jp/test/read.cgi/test/{thread}/", "2ch", "g")
    yield opened
    opened.close()


def test_a_thread_owes_what_is_pending_or_in_flight_and_nothing_once_sent_or_dropped(store: Store) -> None:
    assert not store.owes("X")
    store.queue("a", "X", "dice", ">>5", NOW)
    assert store.owes("X") and not store.owes("Y")  # another thread's rows are not this one's debt
    owed = store.outbox_item("a")
    assert (owed.kind, owed.body, owed.created_at, owed.state, owed.attempts) == (
        "dice",
        ">>5",
        NOW.isoformat(),
        "pending",
        0,
    )
    store.mark_sending("a", 5)
    assert store.owes("X")  # in flight: still to settle
    store.mark_sent("a", NOW)
    assert not store.owes("X")
    store.queue("b", "X", "dice", ">>6", NOW)
    store.drop("b", "ＥＲＲＯＲ：本文が長すぎます")
    assert not store.owes("X")
    assert (store.outbox_item("b").state, store.outbox_item("b").last_error) == (
        "dropped",
        "ＥＲＲＯＲ：本文が長すぎます",
    )


def test_where_the_bot_last_wrote_is_each_threads_newest_sent_post(store: Store) -> None:
    assert list(store.last_sent()) == []
    for name, thread, minutes in (("a", "X", 1), ("b", "X", 5), ("c", "Y", 3), ("d", "Y", 9)):
        store.queue(name, thread, "dice", name, NOW)
        if name != "d":  # d is still owed: the bot has not written it
            store.mark_sent(name, NOW + timedelta(minutes=minutes))
    assert sorted(store.last_sent()) == [
        ("X", (NOW + timedelta(minutes=5)).isoformat()),
        ("Y", (NOW + timedelta(minutes=3)).isoformat()),
    ]


def test_an_unconfirmed_post_without_a_rest_may_be_judged_at_the_next_read(store: Store) -> None:
    store.queue("a", "X", "dice", ">>5", NOW)
    store.mark_sending("a", 5, settle_after=NOW + timedelta(seconds=20))
    store.mark_unconfirmed("a", "no answer from the board")
    row = store.outbox_item("a")
    assert (row.state, row.not_before, row.last_error) == ("sending", None, "no answer from the board")
    store.mark_unconfirmed("a", "HTTP 504", not_before=NOW + timedelta(minutes=2))
    assert store.outbox_item("a").not_before == (NOW + timedelta(minutes=2)).isoformat()


def test_answers_carried_over_twice_keep_the_order_they_were_owed_in(store: Store) -> None:
    store.queue("x1", "X", "dice", ">>3 old", NOW)
    store.queue("y1", "Y", "dice", ">>1 one", NOW)
    store.queue("y2", "Y", "dice", ">>2 two", NOW)
    with store.transaction():  # the old thread filled: what it owed goes after what Y owes
        assert store.retarget_outbox("X", "Y", str.upper) == 1
    assert [row.id for row in store.outbox("Y")] == ["y1", "y2", "x1"]
    assert store.outbox_item("x1").body == ">>3 OLD"
    with store.transaction():  # Y filled too
        assert store.retarget_outbox("Y", "Z", lambda body: body) == 3
    assert [row.id for row in store.outbox("Z")] == ["y1", "y2", "x1"]
    assert store.outbox("Y") == [] and store.outbox("X") == []


def test_carrying_over_keeps_the_rows_asked_for_and_moves_the_rest(store: Store) -> None:
    for name in ("a", "b", "c"):
        store.queue(name, "X", "dice", name, NOW)
    with store.transaction():
        assert store.retarget_outbox("X", "Y", lambda body: body, keep=["a"]) == 2
    assert [row.id for row in store.outbox("X")] == ["a"]
    assert [row.id for row in store.outbox("Y")] == ["b", "c"]


def test_a_row_carried_over_no_longer_waits_for_someone_to_write_in_the_old_thread(store: Store) -> None:
    store.queue("a", "X", "dice", ">>5", NOW)
    store.mark_sending("a", 990)
    store.mark_unsent("a", "連続投稿ですか？？", wait_after=990)  # the old thread's post numbers
    with store.transaction():
        store.retarget_outbox("X", "Y", lambda body: body)
    assert store.outbox_item("a").wait_after == 0


def test_rows_come_in_the_order_they_were_owed_whatever_their_state(store: Store) -> None:
    for name in ("dice/12/0", "dice/13/0", "dice/14/0"):
        store.queue(name, "X", "dice", name, NOW)
    store.mark_sending("dice/12/0", 5)  # one id, given as a string
    assert store.outbox_item("dice/12/0").state == "sending"
    assert [row.id for row in store.outbox("X")] == ["dice/12/0", "dice/13/0", "dice/14/0"]
    store.mark_sent("dice/12/0", NOW, 6)
    store.drop("dice/13/0", "ＥＲＲＯＲ")
    assert [row.state for row in map(store.outbox_item, ("dice/12/0", "dice/13/0"))] == ["sent", "dropped"]


def test_a_row_keeps_the_boards_reason_only_while_it_is_owed_and_forgets_the_post_it_was_refused_in(
    store: Store,
) -> None:
    store.queue("a", "X", "dice", ">>5", NOW)
    store.queue("b", "X", "dice", ">>6", NOW)
    store.mark_sending(["a", "b"], 5, body=">>5\n>>6")
    assert [(r.batch, r.sent_body) for r in store.outbox("X")] == [("a", ">>5\n>>6"), ("a", ">>5\n>>6")]
    store.mark_unsent(["a", "b"], "593 10 sec たたないと書けません")
    # back to owed: the refused post is no longer one these rows were in (a later post may hold one alone)
    assert [(r.state, r.batch, r.sent_body, r.last_error) for r in store.outbox("X")] == [
        ("pending", None, None, "593 10 sec たたないと書けません"),
        ("pending", None, None, "593 10 sec たたないと書けません"),
    ]
    store.mark_sending("a", 6)
    store.mark_sent("a", NOW, number=7)
    sent = store.outbox_item("a")
    assert (sent.state, sent.sent_number, sent.last_error, sent.batch) == (
        "sent",
        7,
        None,
        "a",
    )  # written: no reason
