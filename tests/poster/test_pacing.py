"""The pace of the bot's posts per board host: the board's own number plus a margin, counted from
the board's answer to the last post, the default where a board publishes none, one post in flight at
a time, and a refusal holding the host for what the board asked."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest

from poster.pacing import Pacer, refusal_count

JST = timezone(timedelta(hours=9))
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=JST)
HOST = "http://example.jp"


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_post_waits_for_the_boards_number_plus_the_margin_from_its_answer() -> None:
    pacer = Pacer(default_seconds=30, margin=1)
    pacer.announce(HOST, 10)
    assert pacer.claim(HOST, at(0)) is None  # the first post goes at once
    pacer.answered(HOST, at(2.5))  # a slow board: its answer arrived 2.5 s later
    assert pacer.claim(HOST, at(5)) == at(13.5)  # counted from the answer, not from the claim
    assert pacer.claim(HOST, at(13.4)) == at(13.5)
    assert pacer.claim(HOST, at(13.5)) is None
    pacer.answered(HOST, at(14))
    assert pacer.claim(HOST, at(15)) == at(25)


def test_one_post_is_in_flight_per_host_until_its_answer_arrives() -> None:
    pacer = Pacer(margin=1)
    pacer.announce(HOST, 0)  # even a board without samba takes one post at a time from the bot
    assert pacer.claim(HOST, at(0)) is None
    assert pacer.claim(HOST, at(0.5)) == at(1.5)  # another game's post on the same host waits
    pacer.answered(HOST, at(0.7))
    assert pacer.claim(HOST, at(0.8)) is None
    pacer.answered(HOST, at(0.9))
    pacer.announce(HOST, 10)
    assert pacer.claim(HOST, at(1)) == at(11.9)
    assert pacer.claim(HOST, at(11.9)) is None
    # an answer that never arrives (a bug, a hung request) gives the slot back after a while
    assert pacer.claim(HOST, at(60)) == at(71)
    assert pacer.claim(HOST, at(200)) == at(211)  # counted from when it was given up
    assert pacer.claim(HOST, at(211)) is None


def test_a_board_without_the_number_gets_the_default_and_zero_means_no_pace() -> None:
    pacer = Pacer(default_seconds=10, margin=1)
    pacer.announce(HOST, None)
    assert pacer.claim(HOST, at(0)) is None
    pacer.answered(HOST, at(0))
    assert pacer.claim(HOST, at(1)) == at(11)
    local = "http://127.0.0.1:8380"
    pacer.announce(local, 0)
    for _ in range(3):
        assert pacer.claim(local, at(0)) is None
        pacer.answered(local, at(0))
    assert pacer.wait(local) == 0 and pacer.wait(HOST) == 11


def test_hosts_are_paced_apart_and_the_longest_board_of_a_host_counts() -> None:
    pacer = Pacer(margin=0)
    pacer.announce(HOST, 5, "a")
    pacer.announce(HOST, 20, "b")  # another board of the same host asks for more
    pacer.announce("http://other.jp", 5)
    assert pacer.claim(HOST, at(0)) is None and pacer.claim("http://other.jp", at(0)) is None
    pacer.answered(HOST, at(0))
    pacer.answered("http://other.jp", at(0))
    assert pacer.claim(HOST, at(6)) == at(20)
    assert pacer.claim("http://other.jp", at(6)) is None


def test_a_board_that_changes_its_number_is_taken_at_its_word() -> None:
    pacer = Pacer(margin=1)
    pacer.announce(HOST, 10, "demo")
    assert pacer.claim(HOST, at(0)) is None
    pacer.answered(HOST, at(0))
    assert pacer.claim(HOST, at(1)) == at(11)
    pacer.announce(HOST, 0, "demo")  # the owner set BBS_SAMBATIME=0: the old 10 s no longer counts
    assert pacer.wait(HOST) == 0 and pacer.claim(HOST, at(1)) is None


def test_a_restart_waits_out_the_last_post_it_remembers() -> None:
    pacer = Pacer(margin=1)
    pacer.announce(HOST, 10)
    pacer.remember(HOST, at(-4))
    assert pacer.claim(HOST, at(0)) == at(7)


def test_a_refusal_holds_the_host_and_is_logged_with_the_boards_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pacer = Pacer(margin=1)
    pacer.announce(HOST, 10)
    assert pacer.claim(HOST, at(0)) is None
    pacer.answered(HOST, at(0.5))
    message = "ＥＲＲＯＲ - 593 10 sec たたないと書けません。(2回目、3 sec しかたってない)"
    with caplog.at_level(logging.WARNING):
        until = pacer.refused(HOST, 8, message, at(3))
    assert until == at(12)
    assert pacer.claim(HOST, at(11.5)) == at(12)
    assert "the board's count: 2" in caplog.text


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("593 10 sec たたないと書けません。(1回目、0 sec しかたってない)", 1),
        ("593 10 sec たたないと書けません。（１２回目、0 sec しかたってない）", 12),  # full-width alike
        ("多重書き込みです。あと 5 秒お待ちください。", None),
    ],
)
def test_the_count_is_read_from_ex0chs_wording(message: str, count: int | None) -> None:
    assert refusal_count(message) == count


def test_a_refusal_of_a_host_not_yet_paced_holds_it_and_the_log_says_what_and_until_when(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pacer = Pacer(margin=1)  # the bot restarted: the board refuses its very first post
    message = "多重書き込みです。あと 5 秒お待ちください。" + "。" * 200
    with caplog.at_level(logging.WARNING):
        assert pacer.refused(HOST, 5, message, at(0)) == at(6)
    assert pacer.claim(HOST, at(5)) == at(6)
    (record,) = caplog.records
    assert record.getMessage() == (
        f"{HOST} refused a post for its pace ({message[:120]}); nothing goes there before {at(6):%H:%M:%S}"
    )


def test_a_post_whose_answer_never_came_gives_its_slot_back_after_two_minutes_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pacer = Pacer(default_seconds=10, margin=1)
    assert pacer.claim(HOST, at(0)) is None
    assert pacer.claim(HOST, at(119)) == at(130)  # still in flight
    with caplog.at_level(logging.WARNING):
        assert pacer.claim(HOST, at(120)) == at(131)  # given up: the pace counts from now
    assert caplog.messages == [f"{HOST}: a post's answer never arrived; counting the pace from now"]
    assert pacer.claim(HOST, at(131)) is None


def test_hosts_never_seen_have_the_default_pace_and_a_one_second_samba_counts() -> None:
    pacer = Pacer(default_seconds=10, margin=1)
    assert pacer.wait("http://never.example") == 11
    pacer.answered("http://answered.example", at(0))  # an answer from a host not claimed in this run
    assert pacer.claim("http://answered.example", at(5)) == at(11)
    pacer.announce(HOST, 1)
    assert pacer.wait(HOST) == 2
