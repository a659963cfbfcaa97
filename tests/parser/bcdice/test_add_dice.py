from __future__ import annotations

import pytest

from parser.bcdice.add_dice import UNDECIDED, AddDice, DiceRoll, includes_dice, parse
from parser.bcdice.arithmetic import Chain, Neg, Num, Paren


def test_plain_roll() -> None:
    assert parse("2D6") == AddDice(False, DiceRoll(Num(2), Num(6)))


def test_secret_comparison_and_comment() -> None:
    assert parse("s2d6>=7 判定") == AddDice(True, DiceRoll(Num(2), Num(6)), ">=", Num(7))


def test_undecided_target() -> None:
    assert parse("2D6>=?") == AddDice(False, DiceRoll(Num(2), Num(6)), ">=", UNDECIDED)


def test_leading_d_means_one_die_and_trailing_d_means_implicit_sides() -> None:
    assert parse("D20").lhs == DiceRoll(Num(1), Num(20))
    assert parse("3D").lhs == DiceRoll(Num(3), None)


@pytest.mark.parametrize(
    ("text", "keep", "count"),
    [
        ("5D10KH3", "KH", 3),
        ("5D10KL", "KL", 1),
        ("5DDH3", "DH", 3),
        ("5DDL", "DL", 1),
        ("3D6MAX", "KH", 1),
        ("5DMIN", "KL", 1),
    ],
)
def test_keep_and_drop_filters(text: str, keep: str, count: int) -> None:
    lhs = parse(text).lhs
    assert lhs.keep == keep and lhs.keep_count == Num(count)


def test_minus_a_negative_becomes_plus() -> None:
    assert parse("2d10--3").lhs == Chain(DiceRoll(Num(2), Num(10)), (("+", Num(3)),))


def test_double_negation_cancels_and_single_stays() -> None:
    assert parse("--1D6").lhs == DiceRoll(Num(1), Num(6))
    assert parse("-2D6").lhs == Neg(DiceRoll(Num(2), Num(6)))


def test_counts_and_sides_may_be_parenthesised_expressions() -> None:
    lhs = parse("(2+3)D(5+5)").lhs
    assert lhs.times == Paren(Chain(Num(2), (("+", Num(3)),)))


@pytest.mark.parametrize(
    "text",
    [
        "134",
        "1+2*3/4",
        "2D6>",
        "2D6>?a",
        "2D6>12?a",
        "1D6/3x",
        "D66",
        "D66A",
        "3D6MAX2",
        "5DK",
        "1D6>=1D6",
        "(1D6)D6",
        "D(1D6)",
        "2D6!7",
        "1D6D6",
    ],
)
def test_not_sums(text: str) -> None:
    assert parse(text) is None


def test_two_d66_is_a_sum_of_d66() -> None:
    assert parse("2D66").lhs == DiceRoll(Num(2), Num(66))


def test_includes_dice_looks_through_every_node() -> None:
    assert includes_dice(Neg(Paren(Chain(Num(1), (("+", DiceRoll(Num(1), Num(6))),)))))
    assert not includes_dice(Paren(Chain(Num(1), (("+", Num(2)),))))
