from __future__ import annotations

import pytest

from engine.dice.bcdice.arithmetic import MAX_ABS_VALUE, ZeroDivision, apply, compare, value
from engine.dice.bcdice.roller import Refused
from parser.bcdice.arithmetic import DIV, DIV_CEIL, DIV_FLOOR, DIV_ROUND, Chain, Neg, Num, Paren


@pytest.mark.parametrize(
    ("op", "lhs", "rhs", "expected"),
    [
        (DIV, 7, 2, 3),
        (DIV, -7, 2, -4),
        (DIV, 4, -3, -2),
        (DIV_FLOOR, 3, 2, 1),
        (DIV_CEIL, 4, -3, -1),
        (DIV_CEIL, 1, 3, 1),
        (DIV_CEIL, -1, 3, 0),
        (DIV_ROUND, 1, 2, 1),
        (DIV_ROUND, 1, 3, 0),
        (DIV_ROUND, 4, -3, -1),
        (DIV_ROUND, 5, -3, -2),
        (DIV_ROUND, -5, 2, -3),
        (DIV_ROUND, 55, 10, 6),
        (DIV_ROUND, 54, 10, 5),
    ],
)
def test_division_rounds_like_ruby(op: str, lhs: int, rhs: int, expected: int) -> None:
    assert apply(op, lhs, rhs) == expected


def test_division_by_zero_is_one_in_sums_and_an_error_elsewhere() -> None:
    assert apply(DIV_CEIL, 5, 0, zero_is_one=True) == 1
    with pytest.raises(ZeroDivision, match="ゼロ除算"):
        apply(DIV_ROUND, 5, 0)


def test_values_past_the_cap_are_refused() -> None:
    big = Num(10**60)
    with pytest.raises(Refused, match="大きすぎ"):
        value(Chain(big, (("*", big),)))
    assert value(Chain(Num(MAX_ABS_VALUE), (("-", Num(1)),))) == MAX_ABS_VALUE - 1


def test_value_walks_every_node() -> None:
    assert value(Paren(Chain(Neg(Num(3), 3), (("+", Neg(Num(1), 2)),)))) == -2


@pytest.mark.parametrize(
    ("op", "results"),
    [
        ("<=", (True, True, False)),
        (">=", (False, True, True)),
        ("<", (True, False, False)),
        (">", (False, False, True)),
        ("==", (False, True, False)),
        ("!=", (True, False, True)),
    ],
)
def test_compare(op: str, results: tuple[bool, bool, bool]) -> None:
    assert tuple(compare(lhs, op, 2) for lhs in (1, 2, 3)) == results
