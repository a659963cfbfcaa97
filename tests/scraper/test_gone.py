"""A thread is gone only on proof: the sign twice, apart in time, with the board's list as before."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine.keys import JST
from scraper.gone import GONE_APART, GoneWitness, gone_page

T0 = datetime(2026, 12, 1, 21, 0, tzinfo=JST)
OTHERS = ["1800000001", "1800000002", "1800000003", "1800000004"]


def test_a_sign_seen_once_is_no_proof_and_twice_apart_is() -> None:
    witness = GoneWitness()
    assert witness.observe("1700000000", "HTTP 404", OTHERS, T0) == (
        False,
        f"subject.txt no longer lists it; looking again after {GONE_APART}",
    )
    assert not witness.observe("1700000000", "HTTP 404", OTHERS, T0 + GONE_APART / 2)[0]
    proven, why = witness.observe("1700000000", "HTTP 410", OTHERS[1:], T0 + GONE_APART)
    assert proven and "HTTP 404 at 21:00:00" in why and "no longer lists it" in why


def test_a_list_that_is_not_the_board_s_never_proves_it() -> None:
    witness = GoneWitness()
    for minutes in range(0, 60, 10):
        now = T0 + timedelta(minutes=minutes)
        assert witness.observe("1700000000", "HTTP 404", None, now)[0] is False
        assert witness.observe("1700000000", "HTTP 404", [], now)[0] is False  # an empty 200


def test_a_list_without_the_board_s_other_threads_is_not_as_before() -> None:
    witness = GoneWitness()
    witness.observe("1700000000", "HTTP 404", OTHERS, T0)
    stranger = ["1900000000"]  # a proxy's idea of a list
    assert witness.observe("1700000000", "HTTP 404", stranger, T0 + GONE_APART) == (
        False,
        "subject.txt does not list the board's other threads as before",
    )


def test_a_read_or_a_listing_in_between_starts_the_count_again() -> None:
    witness = GoneWitness()
    witness.observe("1700000000", "HTTP 404", OTHERS, T0)
    witness.reset()  # the thread was read meanwhile
    assert not witness.observe("1700000000", "HTTP 404", OTHERS, T0 + GONE_APART)[0]
    assert not witness.observe("1700000000", "HTTP 404", ["1700000000", *OTHERS], T0 + 2 * GONE_APART)[0]
    assert not witness.observe("1700000000", "HTTP 404", OTHERS, T0 + 3 * GONE_APART)[0]
    assert witness.observe("1700000000", "HTTP 404", OTHERS, T0 + 4 * GONE_APART)[0]


def test_the_boards_own_pages_for_a_missing_thread() -> None:
    assert gone_page("<title>ERROR:スレッドが存在しません。</title>") == "スレッドが存在しません"
    assert gone_page("このスレッドは過去ログ倉庫に格納されています") == "過去ログ倉庫に格納されています"
    assert gone_page("<title>メンテナンス中</title>") is None
