from __future__ import annotations

import pytest

from engine.dice.bcdice.roller import MAX_DICE, MAX_SIDES, MAX_TIMES, Refused, Roller
from engine.rng import RecordedDice


class Ones:
    """A die that always shows 1 and counts how often it was rolled."""

    def __init__(self) -> None:
        self.count = 0

    def roll(self, sides: int) -> int:
        self.count += 1
        return 1


def test_rolls_are_recorded_in_order() -> None:
    roller = Roller(RecordedDice([(6, 3), (10, 7)]))
    assert roller.roll_once(6) == 3
    assert roller.roll_barabara(1, 10) == [7]
    assert roller.rolls == [(6, 3), (10, 7)]


def test_out_of_range_sides_show_zero_without_rolling() -> None:
    dice = Ones()
    roller = Roller(dice)
    assert roller.roll_once(0) == 0
    assert roller.roll_once(MAX_SIDES + 1) == 0
    assert dice.count == 0 and roller.rolls == []


def test_more_than_max_times_at_once_gives_no_dice() -> None:
    dice = Ones()
    assert Roller(dice).roll_barabara(MAX_TIMES + 1, 6) == []
    assert Roller(dice).roll_barabara(0, 6) == []
    assert dice.count == 0


def test_the_budget_covers_the_whole_command() -> None:
    roller = Roller(Ones())
    for _ in range(MAX_DICE // MAX_TIMES):
        roller.roll_barabara(MAX_TIMES, 6)
    with pytest.raises(Refused, match="10000個まで"):
        roller.roll_once(6)
    with pytest.raises(Refused):
        Roller(Ones()).roll_barabara(MAX_DICE + 1, 6)


def test_zero_faced_dice_count_against_the_budget_too() -> None:
    roller = Roller(Ones())
    with pytest.raises(Refused):
        for _ in range(MAX_DICE + 1):
            roller.roll_once(0)


@pytest.mark.parametrize(("order", "expected"), [("N", 61), ("A", 16), ("D", 61)])
def test_d66_orders(order: str, expected: int) -> None:
    assert Roller(RecordedDice([(6, 6), (6, 1)])).roll_d66(order) == expected


def test_index_is_zero_based() -> None:
    assert Roller(RecordedDice([(3, 3)])).roll_index(3) == 2
