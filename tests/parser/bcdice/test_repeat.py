from __future__ import annotations

from parser.bcdice.repeat import Repeat, parse


def test_keywords_count_and_trailer() -> None:
    assert parse("x5 1D6") == Repeat(False, 5, "1D6")
    assert parse("rep5 1D6 コメント") == Repeat(False, 5, "1D6 コメント")
    assert parse("REPEAT5 1D6") == Repeat(False, 5, "1D6")
    assert parse("sx5 1D6").secret


def test_needs_whitespace_and_something_after_it() -> None:
    assert parse("rep1") is None
    assert parse("rep1 ") is None
    assert parse("x5") is None
    assert parse("2R6") is None


def test_huge_counts_stay_out_of_range_without_huge_integers() -> None:
    assert parse("x" + "9" * 1500 + " 1D6").times > 100
    assert parse("x0005 1D6").times == 5


def test_nesting_is_seen_in_any_case() -> None:
    assert parse("x2 rep100 1D6").nested
    assert parse("x2 X3 1D6").nested
    assert not parse("x2 1D6").nested
    assert not parse("x2 repeat 1D6").nested
