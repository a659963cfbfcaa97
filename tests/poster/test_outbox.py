"""The outbox's decisions on each kind of answer, with a stand-in writer (the board is in the
scheduler tests): what is resent, when, and what waits for the thread to be read first."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from poster.markup import PostLimits
from poster.outbox import LANDING_TIME, MAX_REST, OutboxSender, SendResult
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import PostRecord, Store

JST = timezone(timedelta(hours=9))
REF = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")


class Writer:
    def __init__(self, *outcomes: WriteOutcome) -> None:
        self.outcomes = list(outcomes)
        self.sent: list[str] = []
        self.threads: list[ThreadRef] = []

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:
        self.sent.append(body)
        self.threads.append(ref)
        return self.outcomes.pop(0)


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "bot.sqlite")
    opened.ensure_thread(REF.id, REF.read_url, "2ch", "g")
    yield opened
    opened.close()


def sender(store: Store, writer: Writer, clock: list[datetime], pace: float = 0) -> OutboxSender:
    # A board without samba unless a test asks for one: the resend decisions are these tests' subject.
    return OutboxSender(store, writer, lambda: clock[0], lambda post: False, Pacer(pace))


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


def test_a_lost_answer_is_looked_for_before_the_post_is_sent_again(store: Store) -> None:
    # A slow board may still be writing the post when the thread is read next.
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("uncertain", "no answer from the board"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: True)
    for _ in range(LANDING_TIME // timedelta(seconds=5)):
        outbox.reconcile(REF.id)
        assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 0
        clock[0] += timedelta(seconds=5)
    outbox.reconcile(REF.id)
    assert outbox.send(REF, REF.id, 6, lambda n: True).sent == 1 and len(writer.sent) == 2


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


def test_a_landed_post_is_recognised_although_the_board_trimmed_its_line_ends() -> None:
    from poster.outbox import comparable

    # Boards drop the spaces at line ends and turn entities back: the same post must compare equal,
    # or the outbox would take a landed post for a lost one and send it twice.
    assert comparable(">>5 \ndice1d6=3 (3)  \n") == comparable(">>5\ndice1d6=3 (3)")
    assert comparable("A &amp; B\r\nC") == comparable("A & B\nC")
    assert comparable(">>5\nx") != comparable(">>6\nx")
    assert comparable("a\nb") != comparable("a b")  # the lines are the post's own


def test_a_landed_post_is_recognised_whatever_the_board_made_of_a_reference_to_a_newline() -> None:
    from poster.outbox import comparable
    from scraper.dat import parse_dat

    # The bot echoes a player's `&#10`: a board may keep it (read back as a space), drop it (ex0ch
    # drops `&#10;`) or escape it; read back, it is still the post the bot sent, and no line break.
    sent = ">>5 受付: 攻撃&#10入力\n二行目"
    for stored in ("&gt;&gt;5 受付: 攻撃&#10入力<br>二行目", "&gt;&gt;5 受付: 攻撃入力<br>二行目"):
        (post,) = parse_dat(f"ボット<><>2026/11/29(日) 21:22:13<>{stored}<>\n")
        assert comparable(post.body) == comparable(sent), stored


# -- the board's pace ----------------------------------------------------------------------------


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


def test_a_post_of_several_rows_whose_answer_was_lost_is_found_as_a_whole(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("uncertain", "no answer from the board"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>5\nok", clock[0])
    outbox.send(REF, REF.id, 7, lambda n: True, PostLimits())
    for name, number in (("b", 6), ("c", 7)):
        store.queue(name, REF.id, "dice", f">>{number}\nok", clock[0])
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 8, lambda n: True, PostLimits())  # b and c together; the answer is lost
    assert {row.id for row in store.outbox(REF.id, ["sending"])} == {"b", "c"}
    # it had landed as post 9: the thread shows the one post, and both rows are settled by it
    store.record_fetch(
        REF.id,
        size=0,
        last_modified=None,
        last_number=9,
        now=clock[0],
        posts=[PostRecord(REF.id, 9, name="ボット", body=">>6\nok\n\n>>7\nok")],
    )
    own = OutboxSender(store, writer, lambda: clock[0], lambda post: post.number == 9, Pacer(10))
    own.reconcile(REF.id)
    assert {row.id: row.sent_number for row in store.outbox(REF.id, ["sent"])} == {"a": None, "b": 9, "c": 9}
    assert len(writer.sent) == 2


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


def test_under_a_consecutive_limit_the_last_allowed_post_carries_what_fits_and_says_the_game_waits(
    store: Store,
) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    store.record_fetch(  # the opening post, then the bot's own twice: one post left of three in a row
        REF.id,
        size=0,
        last_modified=None,
        last_number=3,
        now=clock[0],
        posts=[PostRecord(REF.id, n, name="ボット" if n > 1 else "GM", body=f"{n}") for n in (1, 2, 3)],
        is_own=lambda post: post.number > 1,
    )
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    bodies = {name: "\n".join([f"【{name}】", *["行"] * 9]) for name in "abc"}  # ten lines each
    for name, body in bodies.items():
        store.queue(name, REF.id, "report", body, clock[0])
    limit, limits = ConsecutiveLimit.of(3), PostLimits(lines=24)
    result = outbox.send(REF, REF.id, 3, lambda n: False, limits, limit)
    # a and b fit one post with the notice; c does not: it waits for someone else's post
    assert result.sent == 1 and "連投規制" in (result.waiting or "")
    assert writer.sent == ["\n\n".join([bodies["a"], bodies["b"], HOLD_NOTICE])]
    assert [row.id for row in store.outbox(REF.id, ["pending"])] == ["c"]
    assert store.outbox_item("a").sent_body == writer.sent[0]
    assert outbox.send(REF, REF.id, 3, lambda n: False, limits, limit).sent == 0  # never past it
    bot_posts(store, (4, "ボット", "x"), (5, "プレイヤー", "y"), own={4}, now=clock[0])
    # someone wrote: the bot goes on by itself; the game is over, so nothing is said about waiting
    assert outbox.send(REF, REF.id, 5, lambda n: True, limits, limit, game_over=True).sent == 1
    assert writer.sent[1] == bodies["c"]


def test_the_notice_never_makes_a_full_post_too_long_for_the_board(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    full = "\n".join(["【報告】", *["行"] * 23])  # 24 lines: all the board takes
    store.queue("a", REF.id, "report", full, clock[0])
    # the last post 連投規制 allows (one of one), but the row alone fills it: it goes, unchanged
    assert (
        outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(lines=24), ConsecutiveLimit.of(1)).sent == 1
    )
    assert writer.sent == [full]


def test_a_row_held_until_someone_else_writes_is_never_carried_by_an_earlier_post(store: Store) -> None:
    # "b" was refused as 連続投稿 after post 8; "a" is free to go. Under the board's pace the two would
    # fit one post — but that post would put "b" on the board before anyone else wrote.
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>7\ndice1d6=3 (3)", clock[0])
    store.queue("b", REF.id, "dice", ">>8\ndice1d6=4 (4)", clock[0])
    store.mark_unsent("b", "連続投稿ですか？？", wait_after=8)
    wrote_after = {8: False}
    result = outbox.send(REF, REF.id, 8, lambda n: wrote_after[n], PostLimits())
    assert result.sent == 1 and writer.sent == [">>7\ndice1d6=3 (3)"]
    assert "連続投稿" in (result.waiting or "")
    assert [row.id for row in store.outbox(REF.id, ["pending"])] == ["b"]
    wrote_after[8] = True  # a player wrote: "b" goes, at the board's pace
    clock[0] += timedelta(seconds=11)
    assert outbox.send(REF, REF.id, 9, lambda n: wrote_after[n], PostLimits()).sent == 1
    assert writer.sent[-1] == ">>8\ndice1d6=4 (4)"


# -- looking for a post whose answer was lost ---------------------------------------------------


def bot_posts(
    store: Store,
    *posts: tuple[int, str, str],
    own: Collection[int] = (),
    now: datetime = datetime(2026, 11, 29, 21, 0, tzinfo=JST),
) -> None:
    """A read of the thread that brought `posts` (number, name, body); those numbered in `own` are the
    bot's."""
    store.record_fetch(
        REF.id,
        size=0,
        last_modified=None,
        last_number=max(number for number, _, _ in posts),
        now=now,
        posts=[PostRecord(REF.id, number, name=name, body=body) for number, name, body in posts],
        is_own=lambda post: post.number in own,
    )


def test_a_player_repeating_the_bots_words_is_not_the_bots_post_landing(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("uncertain", "no answer from the board"), WriteOutcome("posted"))
    outbox = OutboxSender(store, writer, lambda: clock[0], lambda post: post.name == "ボット", Pacer(0))
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: True)
    # someone copies the bot's answer word for word; the bot's only post after it says something else
    bot_posts(store, (7, "名無し", ">>5\ndice1d6=3 (3)"), (8, "ボット", ">>6\ndice1d6=1 (1)"))
    clock[0] += LANDING_TIME
    outbox.reconcile(REF.id)
    assert outbox.send(REF, REF.id, 8, lambda n: True).sent == 1  # sent again: it had not landed
    assert writer.sent == [">>5\ndice1d6=3 (3)"] * 2


def test_a_pending_row_whose_words_the_bot_already_posted_is_still_sent(store: Store) -> None:
    # the bot answers two players alike (「受付: 待機」); the second answer has not left yet
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = OutboxSender(store, writer, lambda: clock[0], lambda post: post.name == "ボット", Pacer(0))
    bot_posts(store, (3, "ボット", ">>2\n受付: 待機"))
    store.queue("b", REF.id, "receipt", ">>2\n受付: 待機", clock[0])
    outbox.reconcile(REF.id)
    assert store.outbox_item("b").state == "pending"
    assert outbox.send(REF, REF.id, 3, lambda n: True).sent == 1 and len(writer.sent) == 1


def test_the_log_says_what_became_of_a_post_whose_answer_was_lost(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG", logger="poster.outbox")
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    lost = WriteOutcome("uncertain", "no answer from the board")
    writer = Writer(lost, lost)
    outbox = OutboxSender(store, writer, lambda: clock[0], lambda post: post.name == "ボット", Pacer(0))
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: True)
    outbox.reconcile(REF.id)
    until = store.outbox_item("a").not_before
    assert f"{REF.id}: outbox a not in the thread yet; looking again until {until}" in caplog.messages
    clock[0] += LANDING_TIME
    outbox.reconcile(REF.id)
    assert f"{REF.id}: outbox ['a'] did not land; it will be sent again" in caplog.messages
    assert store.outbox_item("a").last_error == "not found in the thread after an unconfirmed send"
    outbox.send(REF, REF.id, 6, lambda n: True)
    bot_posts(store, (7, "ボット", ">>5 \ndice1d6=3 (3)"))
    outbox.reconcile(REF.id)
    assert f"{REF.id}: outbox ['a'] had landed as >>7; not sent again" in caplog.messages
    assert store.outbox_item("a").sent_number == 7 and store.post(REF.id, 7).own


def test_a_post_written_with_old_style_line_breaks_is_recognised() -> None:
    from poster.outbox import comparable

    assert comparable(">>5\rdice1d6=3 (3)") == comparable(">>5\ndice1d6=3 (3)")


def test_a_post_the_board_asked_to_send_later_goes_then_whoever_wrote_meanwhile(store: Store) -> None:
    # only a 連続投稿 refusal waits for someone else's post; "later" and a lost answer do not
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("retry", "サーバが混んでいます", retry_after=30), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\ndice1d6=3 (3)", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: False)
    clock[0] += timedelta(seconds=30)
    assert outbox.send(REF, REF.id, 6, lambda n: False).sent == 1


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


def test_while_a_post_is_unconfirmed_nothing_else_goes_and_the_wait_is_said(store: Store) -> None:
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("uncertain", "no answer from the board"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\nx", clock[0])
    store.queue("b", REF.id, "dice", ">>6\ny", clock[0])
    outbox.send(REF, REF.id, 6, lambda n: True)
    held = outbox.send(REF, REF.id, 6, lambda n: True)
    assert held == SendResult(waiting="an unconfirmed post must be looked for in the thread first")
    assert len(writer.sent) == 1


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


def test_under_a_consecutive_limit_a_game_going_on_says_it_waits_even_when_nothing_is_held(
    store: Store,
) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\nx", clock[0])
    assert outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(), ConsecutiveLimit.of(1)).sent == 1
    assert writer.sent == [f">>5\nx\n\n{HOLD_NOTICE}"]  # the next answer will have to wait


# -- each answer of the board, and batching ------------------------------------------------------

T0 = datetime(2026, 11, 29, 21, 0, tzinfo=JST)
TOO_LONG = "ＥＲＲＯＲ：本文が長すぎます！"


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


def test_a_post_whose_answer_never_came_back_is_looked_for_before_it_is_sent_again(store: Store) -> None:
    # the bot died while the board was answering: on restart the row is `sending`, with no outcome
    class Dying(Writer):
        def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:
            raise KeyboardInterrupt

    clock = [T0]
    store.queue("a", REF.id, "dice", ">>5", T0)
    with pytest.raises(KeyboardInterrupt):
        sender(store, Dying(), clock).send(REF, REF.id, 6, lambda n: True)
    restarted = sender(store, Writer(WriteOutcome("posted")), clock)
    clock[0] = T0 + LANDING_TIME - timedelta(seconds=1)
    restarted.reconcile(REF.id)
    assert store.outbox_item("a").state == "sending"  # a slow board may still be writing it
    clock[0] = T0 + LANDING_TIME
    restarted.reconcile(REF.id)
    assert restarted.send(REF, REF.id, 6, lambda n: True).sent == 1


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


def test_rows_that_exactly_fill_a_post_go_as_one(store: Store) -> None:
    clock = [T0]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", "あ" * 10, T0)
    store.queue("b", REF.id, "dice", "い" * 10, T0)
    # 10 + 10 characters and two line breaks, each stored as <br> (4): 28
    assert outbox.send(REF, REF.id, 6, lambda n: True, PostLimits(chars=28)).sent == 1
    assert writer.sent == ["あ" * 10 + "\n\n" + "い" * 10]


def test_the_last_allowed_post_keeps_room_for_the_notice_and_a_game_over_says_nothing(store: Store) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [T0]
    writer = Writer(*[WriteOutcome("posted")] * 3)
    outbox = sender(store, writer, clock)
    eleven = {name: "\n".join([f"【{name}】", *["行"] * 10]) for name in "abc"}  # 11 lines each
    for name, body in eleven.items():
        store.queue(name, REF.id, "report", body, T0)
    # a and b would fill 23 of 24 lines; with the notice they would not fit: a goes alone with it
    outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(lines=24), ConsecutiveLimit.of(1))
    assert writer.sent == [f"{eleven['a']}\n\n{HOLD_NOTICE}"]
    # the game is over, but rows are still held after this post: it still says the game waits
    bot_posts(store, (1, "ボット", "x"), (2, "名無し", "y"), own={1}, now=T0)
    limit = ConsecutiveLimit.of(1, 1)
    outbox.send(REF, REF.id, 2, lambda n: True, PostLimits(lines=24), limit, game_over=True)
    assert writer.sent[-1] == f"{eleven['b']}\n\n{HOLD_NOTICE}"
    bot_posts(store, (3, "ボット", "x"), (4, "名無し", "y"), own={3}, now=T0)
    outbox.send(REF, REF.id, 4, lambda n: True, PostLimits(lines=24), limit, game_over=True)
    assert writer.sent[-1] == eleven["c"]  # the game's last post: nothing more will come


def test_the_bots_opening_post_counts_toward_its_share_of_the_thread(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [T0]
    bot_posts(store, (1, "ボット", "開始"), (2, "ボット", "受付"), own={1, 2}, now=T0)
    writer = Writer()
    store.queue("a", REF.id, "dice", ">>2", T0)
    result = sender(store, writer, clock).send(
        REF, REF.id, 2, lambda n: False, PostLimits(), ConsecutiveLimit.of(2, 3)
    )
    assert result.waiting == "連投規制: the bot wrote its share of the last posts" and writer.sent == []


def test_rows_sent_together_count_as_one_post_toward_the_bots_share(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [T0]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>a", T0)
    store.queue("b", REF.id, "dice", ">>b", T0)
    limit = ConsecutiveLimit.of(3)
    assert outbox.send(REF, REF.id, 1, lambda n: True, PostLimits(), limit).sent == 1  # a and b, one post
    store.queue("c", REF.id, "dice", ">>c", T0)
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 1, lambda n: True, PostLimits(), limit)
    assert writer.sent == [">>a\n\n>>b", ">>c"]  # one post written of three: no notice yet


def test_a_lost_post_that_carried_the_notice_is_found_with_it(store: Store) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [T0]
    writer = Writer(WriteOutcome("uncertain", "no answer"))
    outbox = OutboxSender(store, writer, lambda: clock[0], lambda post: post.name == "ボット", Pacer(0))
    store.queue("a", REF.id, "dice", ">>5\nx", T0)
    outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(), ConsecutiveLimit.of(1))
    bot_posts(store, (1, "ボット", f">>5\nx\n\n{HOLD_NOTICE}"))
    clock[0] += LANDING_TIME
    outbox.reconcile(REF.id)
    assert store.outbox_item("a").sent_number == 1 and len(writer.sent) == 1


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
