"""A board that says a post was refused — samba, 連続投稿, "later" — when it wrote it all the same: the
row is looked for in the thread before it is sent again, and found there it is settled, never sent
twice. Only the bot's own post counts (its trip; for a bot without one, a post without a trip)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from poster.markup import PostLimits
from poster.outbox import OutboxSender
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from store.db import PostRecord, Store
from tests.poster.outbox_support import REF, T0, Writer

SAMBA = WriteOutcome("retry", "ＥＲＲＯＲ - 593 10 sec たたないと書けません。", retry_after=11)
IN_A_ROW = WriteOutcome("wait_for_others", "ＥＲＲＯＲ：連続投稿 連続投稿ですか？？")
BOT_TRIP = "WokonZwxw2"


def _read(store: Store, *posts: PostRecord, now=T0) -> None:
    store.record_fetch(
        REF.id, size=0, last_modified=None, last_number=max(p.number for p in posts), posts=posts, now=now
    )


def _outbox(store: Store, writer: Writer, clock: list, pace: float = 0) -> OutboxSender:
    tripped = lambda post: post.trip == BOT_TRIP  # noqa: E731 — the bot's is_own: its trip
    return OutboxSender(store, writer, lambda: clock[0], tripped, Pacer(pace))


@pytest.mark.parametrize("refusal", [SAMBA, IN_A_ROW], ids=["samba", "連続投稿"])
def test_a_refused_post_the_board_wrote_anyway_is_not_sent_again(store: Store, refusal: WriteOutcome) -> None:
    clock = [T0]
    writer = Writer(refusal, WriteOutcome("posted"), name="ボット#tea")
    outbox = _outbox(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", T0)
    store.queue("b", REF.id, "dice", ">>6\ndice1d6=4 (4)", T0)
    assert outbox.send(REF, REF.id, 6, lambda n: False).sent == 0
    # the next read shows it written as post 7 (and someone wrote after it)
    _read(
        store,
        PostRecord(REF.id, 7, name="ボット", trip=BOT_TRIP, body=">>5\ndice1d6=3 (3)"),
        PostRecord(REF.id, 8, name="名無し", body="次"),
    )
    clock[0] += timedelta(seconds=11)
    outbox.reconcile(REF.id)
    assert (store.outbox_item("a").state, store.outbox_item("a").sent_number) == ("sent", 7)
    assert store.post(REF.id, 7).own and store.post(REF.id, 7).handled  # never answered as a player's
    assert outbox.send(REF, REF.id, 8, lambda n: True).sent == 1
    assert writer.sent == [">>5\ndice1d6=3 (3)", ">>6\ndice1d6=4 (4)"]  # "a" once, then "b"


def test_a_refused_batch_the_board_wrote_anyway_settles_every_row_of_it(store: Store) -> None:
    clock = [T0]
    writer = Writer(SAMBA, WriteOutcome("posted"), name="ボット#tea")
    outbox = _outbox(store, writer, clock, pace=10)
    for name, number in (("a", 5), ("b", 6)):
        store.queue(name, REF.id, "dice", f">>{number}\nok", T0)
    outbox.send(REF, REF.id, 6, lambda n: True, PostLimits(), in_a_row=None)
    assert writer.sent in ([">>5\nok\n\n>>6\nok"], [">>5\nok"])
    _read(store, PostRecord(REF.id, 7, name="ボット", trip=BOT_TRIP, body=writer.sent[0]))
    clock[0] += timedelta(seconds=30)
    outbox.reconcile(REF.id)
    landed = {row.id: row.sent_number for row in store.outbox(REF.id, ["sent"])}
    sent_alone = len(writer.sent[0].split("\n\n")) == 1
    assert landed == ({"a": 7} if sent_alone else {"a": 7, "b": 7})
    outbox.send(REF, REF.id, 7, lambda n: True, PostLimits())
    assert all(">>5" not in body for body in writer.sent[1:])  # never a second time


def test_another_writer_s_copy_of_a_refused_post_is_not_the_bot_s(store: Store) -> None:
    clock = [T0]
    writer = Writer(SAMBA, WriteOutcome("posted"), name="ボット#tea")
    outbox = _outbox(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", T0)
    outbox.send(REF, REF.id, 6, lambda n: True)
    # a player (no trip, or a trip of their own) types the bot's words: the bot's post is still owed
    _read(
        store,
        PostRecord(REF.id, 7, name="ボット", body=">>5\ndice1d6=3 (3)"),
        PostRecord(REF.id, 8, name="ボット", trip="AAAAAAAAAA", body=">>5\ndice1d6=3 (3)"),
    )
    clock[0] += timedelta(seconds=11)
    outbox.reconcile(REF.id)
    assert outbox.send(REF, REF.id, 8, lambda n: True).sent == 1 and len(writer.sent) == 2


def test_a_bot_without_a_trip_knows_its_refused_post_by_its_words(store: Store) -> None:
    clock = [T0]
    writer = Writer(SAMBA, WriteOutcome("posted"), name="ボット")
    outbox = _outbox(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", T0)
    outbox.send(REF, REF.id, 6, lambda n: True)
    _read(store, PostRecord(REF.id, 7, name="ボット", trip="AAAAAAAAAA", body=">>5\ndice1d6=3 (3)"))
    _read(store, PostRecord(REF.id, 8, name="ボット", body=">>5\ndice1d6=3 (3)"))
    clock[0] += timedelta(seconds=11)
    outbox.reconcile(REF.id)
    assert store.outbox_item("a").sent_number == 8  # the post with a trip is someone else's
    assert outbox.send(REF, REF.id, 8, lambda n: True).sent == 0 and len(writer.sent) == 1


def test_a_refused_post_not_in_the_thread_is_sent_again_when_the_board_allows(store: Store) -> None:
    clock = [T0]
    writer = Writer(SAMBA, WriteOutcome("posted"), name="ボット#tea")
    outbox = _outbox(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", T0)
    outbox.send(REF, REF.id, 6, lambda n: True)
    _read(store, PostRecord(REF.id, 7, name="名無し", body="関係ない"))
    outbox.reconcile(REF.id)
    assert store.outbox_item("a").state == "pending"
    clock[0] += timedelta(seconds=11)
    assert outbox.send(REF, REF.id, 7, lambda n: True).sent == 1 and len(writer.sent) == 2
