"""A thread is gone only on proof: the sign twice, apart in time, with the board's list as before."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine.keys import JST
from scraper.gone import CLOCK_SKEW, GONE_APART, LIST_AGE, LIST_RETRY, GoneWitness, Listing, gone_page

T0 = datetime(2026, 12, 1, 21, 0, tzinfo=JST)
OURS = str(int(T0.timestamp()) - 5000)
OTHERS = [str(int(T0.timestamp()) - n * 1000) for n in range(1, 5)]


def witness() -> GoneWitness:
    seen = GoneWitness()
    at = T0 - timedelta(minutes=1)
    seen.known(Listing(at, frozenset([OURS, *OTHERS])), at)
    return seen


def test_a_sign_seen_once_is_no_proof_and_twice_apart_is() -> None:
    seen = witness()
    assert seen.observe(OURS, "HTTP 404", OTHERS, T0) == (
        False,
        f"subject.txt no longer lists it; looking again after {GONE_APART}",
    )
    assert not seen.observe(OURS, "HTTP 404", OTHERS, T0 + GONE_APART / 2)[0]
    newer = str(int(T0.timestamp()) + 60)  # a thread opened since: lists gain new keys
    proven, why = seen.observe(OURS, "HTTP 410", [newer, *OTHERS[1:]], T0 + GONE_APART)
    assert proven and "HTTP 404 at 21:00:00" in why and "no longer lists it" in why


def test_a_thread_opened_as_the_list_was_read_is_new_not_a_stranger() -> None:
    # keys are the board's clock in whole seconds: the same second as our list (a fraction later), or a
    # board whose clock is a few minutes behind ours (found: the suite failed when the second matched)
    listed_at = T0 - timedelta(minutes=1)
    for opened in (int(listed_at.timestamp()), int((listed_at - CLOCK_SKEW).timestamp()) + 1):
        seen = witness()
        assert seen.observe(OURS, "HTTP 404", [str(opened), *OTHERS], T0)[1].startswith(
            "subject.txt no longer"
        )
        assert seen.observe(OURS, "HTTP 404", [str(opened), *OTHERS], T0 + GONE_APART)[0]
    older = str(
        int((listed_at - CLOCK_SKEW).timestamp()) - 1
    )  # older than any skew: the list is not the board's
    assert "older threads" in witness().observe(OURS, "HTTP 404", [older, *OTHERS], T0)[1]


def test_a_list_that_is_not_the_board_s_never_proves_it() -> None:
    seen = witness()
    for minutes in range(0, 60, 10):
        now = T0 + timedelta(minutes=minutes)
        assert seen.observe(OURS, "HTTP 404", None, now)[0] is False
        assert seen.observe(OURS, "HTTP 404", [], now)[0] is False  # an empty 200
        assert seen.observe(OURS, "HTTP 404", ["1111111111"], now)[0] is False  # a proxy's idea of one
        assert seen.observe(OURS, "HTTP 404", OTHERS[:1], now)[1] == (
            "subject.txt does not list the board's other threads as before"
        )


def test_without_the_list_from_while_it_could_be_read_nothing_is_proof() -> None:
    seen = GoneWitness()
    assert seen.needs_list(T0)
    for minutes in (0, 20, 40):
        proven, why = seen.observe(OURS, "HTTP 404", OTHERS, T0 + timedelta(minutes=minutes))
        assert not proven and "no list of the board" in why
    seen.known(None, T0)  # could not be read: still none, asked again a little later, not every poll
    assert not seen.needs_list(T0 + LIST_RETRY / 2) and seen.needs_list(T0 + LIST_RETRY)
    seen.known(Listing(T0 + LIST_RETRY, frozenset([OURS])), T0 + LIST_RETRY)
    assert not seen.needs_list(T0 + LIST_AGE) and seen.needs_list(T0 + LIST_RETRY + LIST_AGE)


def test_a_read_or_a_listing_in_between_starts_the_count_again() -> None:
    seen = witness()
    seen.observe(OURS, "HTTP 404", OTHERS, T0)
    seen.reset()  # the thread was read meanwhile
    assert not seen.observe(OURS, "HTTP 404", OTHERS, T0 + GONE_APART)[0]
    assert not seen.observe(OURS, "HTTP 404", [OURS, *OTHERS], T0 + 2 * GONE_APART)[0]
    assert not seen.observe(OURS, "HTTP 404", OTHERS, T0 + 3 * GONE_APART)[0]
    assert seen.observe(OURS, "HTTP 404", OTHERS, T0 + 4 * GONE_APART)[0]


def test_the_boards_own_pages_for_a_missing_thread() -> None:
    assert gone_page("<title>ERROR:スレッドが存在しません。</title>") == "スレッドが存在しません"
    assert gone_page("このスレッドは過去ログ倉庫に格納されています") == "過去ログ倉庫に格納されています"
    assert gone_page("<title>メンテナンス中</title>") is None
