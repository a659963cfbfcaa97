"""The outbox and a post whose answer was lost: it is looked for in the thread before it is sent
again, recognised whatever the board made of its text, and never confused with a player's copy."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from poster.markup import PostLimits
from poster.outbox import LANDING_TIME, OutboxSender, SendResult
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import PostRecord, Store
from store.outbox import UNSEEN
from tests.poster.outbox_support import JST, REF, T0, Writer, bot_posts, sender


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


@pytest.mark.parametrize("charset", ["cp932", "euc_jp"])
def test_a_landed_post_is_recognised_whatever_the_board_s_charset_made_of_its_characters(
    charset: str,
) -> None:
    from poster.outbox import comparable
    from scraper.dat import parse_dat

    # − 〜 ‖ ¢ £ ¬ go to a Shift-JIS board and come back as － ～ ∥ ￠ ￡ ￢; — has no Shift-JIS form and
    # goes as its reference, which the board keeps or escapes (ex0ch: &amp;#8212;)
    sent = "残機4、倒されても−1\n〜‖¢£¬ — ～"
    as_sent = sent.encode(charset, errors="xmlcharrefreplace").decode(charset)
    for stored in (as_sent, as_sent.replace("&", "&amp;")):
        (post,) = parse_dat(f"ボット<><>2026/11/29(日) 21:22:13<>{stored.replace(chr(10), '<br>')}<>\n")
        assert comparable(post.body) == comparable(sent), stored
    assert comparable("−1") != comparable("+1")


def test_a_post_written_with_old_style_line_breaks_is_recognised() -> None:
    from poster.outbox import comparable

    assert comparable(">>5\rdice1d6=3 (3)") == comparable(">>5\ndice1d6=3 (3)")


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
    assert {row.id: row.sent_number for row in store.outbox(REF.id, ["sent"])} == {
        "a": UNSEEN,
        "b": 9,
        "c": 9,
    }
    assert len(writer.sent) == 2


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
