"""The outbox under a board's pace: rows due together go as one post where a post costs a wait,
within the board's limits, and a pace refusal holds every thread of the host."""

from __future__ import annotations

from datetime import datetime, timedelta

from poster.markup import PostLimits
from poster.outbox import OutboxSender, SendResult
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from store.db import Store
from tests.poster.outbox_support import JST, REF, T0, Writer, sender


def test_under_a_pace_rows_due_together_go_as_one_post_and_each_is_sent_once(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    first = outbox.send(REF, REF.id, 5, lambda n: True, PostLimits())
    assert first.sent == 1 and writer.sent == [">>5\ndice1d6=3 (3)"]
    for name, number in (("b", 6), ("c", 7)):  # answers that came while the bot had to wait
        store.queue(name, REF.id, "dice", f">>{number}\ndice1d6=3 (3)", clock[0])
    held = outbox.send(REF, REF.id, 8, lambda n: True, PostLimits())
    assert held.sent == 0 and held.wake_at == clock[0] + timedelta(seconds=11)  # 10 s and the margin
    clock[0] += timedelta(seconds=10)
    assert outbox.send(REF, REF.id, 8, lambda n: True, PostLimits()).sent == 0 and len(writer.sent) == 1
    clock[0] += timedelta(seconds=1)
    assert outbox.send(REF, REF.id, 8, lambda n: True, PostLimits()).sent == 1
    assert writer.sent[-1] == ">>6\ndice1d6=3 (3)\n\n>>7\ndice1d6=3 (3)"  # the two that waited, together
    assert [row.state for row in store.outbox(REF.id, ["sent"])] == ["sent"] * 3


def test_rows_that_would_not_fit_one_post_go_apart(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(*[WriteOutcome("posted")] * 3)
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>5\n1", clock[0])
    store.queue("b", REF.id, "dice", ">>6\n" + "\n".join("x" * 5 for _ in range(21)), clock[0])
    store.queue("c", REF.id, "dice", ">>7\n" + "\n".join("y" * 5 for _ in range(21)), clock[0])
    for _ in range(3):
        outbox.send(REF, REF.id, 8, lambda n: True, PostLimits(lines=24))
        clock[0] += timedelta(seconds=11)
    assert [body.split("\n")[0] for body in writer.sent] == [">>5", ">>6", ">>7"]


def test_rows_that_exactly_fill_a_post_go_as_one(store: Store) -> None:
    clock = [T0]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", "あ" * 10, T0)
    store.queue("b", REF.id, "dice", "い" * 10, T0)
    # 10 + 10 characters and two line breaks, each stored as <br> (4): 28
    assert outbox.send(REF, REF.id, 6, lambda n: True, PostLimits(chars=28)).sent == 1
    assert writer.sent == ["あ" * 10 + "\n\n" + "い" * 10]


def test_rows_go_together_only_where_a_post_costs_a_wait(store: Store) -> None:
    clock = [T0]
    writer = Writer(*[WriteOutcome("posted")] * 4)
    free = sender(store, writer, clock)  # no pace, no 連投規制: each row its own post
    for name in "ab":
        store.queue(name, REF.id, "dice", f">>{name}", T0)
    assert free.send(REF, REF.id, 6, lambda n: True, PostLimits()).sent == 2 and writer.sent == [">>a", ">>b"]
    pacer = Pacer(0)
    pacer.announce(REF.origin, 10, REF.board)  # the board publishes its samba
    paced = OutboxSender(store, writer, lambda: clock[0], lambda post: False, pacer)
    for name in "cd":
        store.queue(name, REF.id, "dice", f">>{name}", T0)
    store.mark_unsent("d", "混雑", not_before=T0 - timedelta(seconds=1))  # due again already
    assert paced.send(REF, REF.id, 6, lambda n: True, PostLimits()).sent == 1
    assert writer.sent[-1] == ">>c\n\n>>d"


def test_the_pace_after_a_post_holds_the_next_and_says_when(store: Store) -> None:
    clock = [T0]
    outbox = sender(store, Writer(WriteOutcome("posted")), clock, pace=10)
    for name in "ab":
        store.queue(name, REF.id, "dice", f">>{name}", T0)
    result = outbox.send(REF, REF.id, 6, lambda n: True)  # no limits known: one row a post
    slot = T0 + timedelta(seconds=11)
    assert result == SendResult(
        sent=1, waiting=f"the board's pace: next post at {slot:%H:%M:%S}", wake_at=slot
    )


def test_a_boards_pace_refusal_holds_every_thread_of_the_host(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    samba = WriteOutcome(
        "retry", "593 10 sec たたないと書けません。(1回目、2 sec しかたってない)", retry_after=9, paced=True
    )
    writer = Writer(samba, WriteOutcome("posted"), WriteOutcome("posted"))
    pacer = Pacer(0)  # a board that published no pace, yet refuses
    outbox = OutboxSender(store, writer, lambda: clock[0], lambda post: False, pacer)
    other = REF.with_key("1795954999")
    store.ensure_thread(other.id, other.read_url, "2ch", "h")
    store.queue("a", REF.id, "dice", ">>5\nok", clock[0])
    store.queue("z", other.id, "dice", ">>2\nok", clock[0])
    held = outbox.send(REF, REF.id, 6, lambda n: True)
    assert held.wake_at == clock[0] + timedelta(seconds=10)  # 9 s asked, and the margin
    assert outbox.send(other, other.id, 2, lambda n: True).wake_at == held.wake_at  # same host
    clock[0] += timedelta(seconds=10)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 1
    assert outbox.send(other, other.id, 2, lambda n: True).sent == 1
    assert len(writer.sent) == 3


def test_a_polls_reports_become_outbox_rows_in_place_under_the_boards_limits() -> None:
    from engine.referee.ledger import Outgoing
    from engine.report import line, report
    from poster.outbox import outbox_rows
    from store.changes import MarkHandled, Queue, SetGameStatus

    now = datetime(2026, 11, 29, 21, 0, tzinfo=JST)
    long = report(*(line(f"行{n}") for n in range(20)), reply_to=(5,))
    changes = [MarkHandled("T", (5,)), Outgoing("g/p1", "resolution", (long,)), SetGameStatus("g", "over")]
    rows = outbox_rows(changes, "T", PostLimits(lines=12), now)
    assert rows[0] == MarkHandled("T", (5,)) and rows[-1] == SetGameStatus("g", "over")
    queued = rows[1:-1]
    assert [(q.outbox_id, q.thread_id, q.kind) for q in queued] == [
        ("g/p1/0", "T", "resolution"),
        ("g/p1/1", "T", "resolution"),
    ]
    assert all(isinstance(q, Queue) and q.now == now for q in queued)
    assert queued[1].body.startswith(">>5（続き）")
