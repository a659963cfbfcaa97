"""An answer the board will not take — an NG word the bot echoed from a post, a line it finds too
long — is dropped (sent again it would be refused again), but not in silence: the players it answers
are told by anchor, in the board's own words, once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from poster.writer import WriteOutcome
from store.db import Store
from tests.poster.outbox_support import REF, T0, Writer, sender

NG = "<html><title>ＥＲＲＯＲ！</title><body><!-- 2ch_X:error -->ＥＲＲＯＲ：NGワード 使えない言葉です</body></html>"


def test_a_refused_answer_is_said_to_be_refused_to_the_posts_it_answers(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [T0]
    refused = WriteOutcome("rejected", "ＥＲＲＯＲ：NGワード 使えない言葉です")
    writer = Writer(refused, WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("g/answer/0", REF.id, "receipt", ">>12 >>15\n受付: 名前＝禁句", T0)
    outbox.send(REF, REF.id, 15, lambda n: True)
    assert store.outbox_item("g/answer/0").state == "dropped"
    clock[0] += timedelta(seconds=1)
    assert outbox.send(REF, REF.id, 15, lambda n: True).sent == 1
    assert writer.sent[-1] == ">>12 >>15\nこの返答は掲示板に書き込みを断られました（NGワード）"


def test_a_refused_notice_is_not_followed_by_another(store: Store) -> None:
    clock = [T0]
    refused = WriteOutcome("rejected", "ＥＲＲＯＲ：NGワード")
    writer = Writer(refused, refused)
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "receipt", "状態: 禁句", T0)  # no anchor: the notice stands alone
    outbox.send(REF, REF.id, 15, lambda n: True)
    clock[0] += timedelta(seconds=1)
    outbox.send(REF, REF.id, 15, lambda n: True)
    assert writer.sent == ["状態: 禁句", "この返答は掲示板に書き込みを断られました（NGワード）"]
    clock[0] += timedelta(seconds=1)
    outbox.send(REF, REF.id, 15, lambda n: True)
    assert len(writer.sent) == 2 and store.outbox(REF.id) == []


def test_the_board_s_ng_page_reads_as_a_refusal_with_its_heading() -> None:
    from poster.writer import board_reason, classify

    outcome = classify(NG)
    assert outcome.kind == "rejected" and board_reason(outcome.message) == "NGワード"
