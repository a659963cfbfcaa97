from __future__ import annotations

import pytest

from engine.dice.bcdice.faces import bbs_totals, command_totals, coverage, merge, subtract


@pytest.mark.parametrize(
    ("command", "totals"),
    [
        ("1D8", ((1, 8),)),
        ("2D6+1", ((3, 13),)),
        ("4D6KH3", ((3, 18),)),
        ("5D6DL4", ((1, 6),)),
        ("-1D6+7", ((1, 6),)),
        ("(1D4)-(1D4)", ((-3, 3),)),
        ("3D", ((3, 18),)),
        ("2D6KH0", ((0, 0),)),
        ("1d8 コメント", ((1, 8),)),
    ],
)
def test_sums_take_every_value_between_their_bounds(command: str, totals: tuple) -> None:
    assert command_totals(command) == totals


def test_d66_totals_follow_the_sort() -> None:
    assert len([t for first, last in command_totals("D66") for t in range(first, last + 1)]) == 36
    ascending = command_totals("D66A")
    assert ascending[:2] == ((11, 16), (22, 26))
    assert sum(last - first + 1 for first, last in ascending) == 21
    assert command_totals("D66D")[0] == (11, 11)


@pytest.mark.parametrize(
    "command", ["2D6*2", "1D6/2", "1D6>=4", "choice[a,b]", "201D6", "1D66", "1D0", "x2 1D6", "こんにちは"]
)
def test_commands_without_table_faces(command: str) -> None:
    assert command_totals(command) is None


def test_bbs_totals() -> None:
    assert bbs_totals(2, 47) == ((2, 94),)


def test_complete_coverage() -> None:
    assert coverage(((1, 8),), [(1, 4), (5, 6), (7, 7), (8, 8)]).complete


def test_coverage_problems() -> None:
    found = coverage(((1, 8),), [(1, 4), (4, 6), (9, 9), (3, 1), (2, 3)])
    assert found.missing == ((7, 8),)
    assert found.repeated == ((2, 4),)
    assert found.impossible == ((9, 9),)
    assert found.reversed == ((3, 1),)
    assert not found.complete


def test_interval_helpers() -> None:
    assert merge([(5, 6), (1, 2), (3, 3), (8, 9)]) == ((1, 3), (5, 6), (8, 9))
    assert subtract(((1, 10),), ((2, 3), (5, 5), (9, 12))) == ((1, 1), (4, 4), (6, 8))
    assert subtract(((1, 3),), ()) == ((1, 3),)
