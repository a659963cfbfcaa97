"""The pace of the bot's posts per board host: the board's own number plus a margin, the default
where a board publishes none, and a refusal holding the host for what the board asked."""

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


def test_a_post_waits_for_the_boards_number_plus_the_margin() -> None:
    pacer = Pacer(default_seconds=30, margin=1)
    pacer.announce(HOST, 10)
    assert pacer.claim(HOST, at(0)) is None  # the first post goes at once
    assert pacer.claim(HOST, at(5)) == at(11)
    assert pacer.claim(HOST, at(10.9)) == at(11)
    assert pacer.claim(HOST, at(11)) is None  # and the next slot counts from this post
    assert pacer.claim(HOST, at(12)) == at(22)


def test_a_board_without_the_number_gets_the_default_and_zero_means_no_pace() -> None:
    pacer = Pacer(default_seconds=10, margin=1)
    pacer.announce(HOST, None)
    assert pacer.claim(HOST, at(0)) is None and pacer.claim(HOST, at(1)) == at(11)
    local = "http://127.0.0.1:8380"
    pacer.announce(local, 0)
    assert all(pacer.claim(local, at(0)) is None for _ in range(3))
    assert pacer.wait(local) == 0 and pacer.wait(HOST) == 11


def test_hosts_are_paced_apart_and_the_longest_board_of_a_host_counts() -> None:
    pacer = Pacer(margin=0)
    pacer.announce(HOST, 5)
    pacer.announce(HOST, 20)  # another board of the same host asks for more
    pacer.announce("http://other.jp", 5)
    assert pacer.claim(HOST, at(0)) is None and pacer.claim("http://other.jp", at(0)) is None
    assert pacer.claim(HOST, at(6)) == at(20)
    assert pacer.claim("http://other.jp", at(6)) is None


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
