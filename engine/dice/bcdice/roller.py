"""BCDice's randomizer over threadgm's dice: its limits, its D66, and the record of what was rolled.

Like BCDice's `Randomizer`: a roll of more than 200 dice at once gives no dice at all, a die with
fewer than 1 or more than 10000 sides shows 0 without rolling, and one command (a repeat included)
may roll at most 10000 dice — BCDice raises TooManyRandsError there; threadgm refuses with a reason.
Unlike BCDice, the dice that show 0 without rolling count toward those 10000 too, so that
`99999U20000[5]` stops instead of looping through a hundred thousand dice that never roll.
"""

from __future__ import annotations

from itertools import repeat

from engine.rng import Dice, roll_many

MAX_DICE = 10000  # BCDice's UPPER_LIMIT_RANDS: dice per command
MAX_TIMES = 200  # BCDice's UPPER_LIMIT_DICE_TIMES: dice per single roll of xDy, xBy, xRy, xTYy
MAX_SIDES = 10000  # BCDice's UPPER_LIMIT_DICE_SIDES


class Refused(Exception):
    """Evaluation stopped by a limit; `reason` is the Japanese answer for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def too_many_dice() -> Refused:
    return Refused(f"ダイスが多すぎます（1回のコマンドで{MAX_DICE}個まで）")


class Roller:
    """One command's dice: rolls through `dice`, counts against MAX_DICE, records (sides, value)."""

    __slots__ = ("_batch", "_dice", "_used", "rolls")

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self._batch = getattr(dice, "roll_many", None)  # `SeededDice.roll_many`, looked up once
        self._used = 0
        self.rolls: list[tuple[int, int]] = []

    def roll_once(self, sides: int) -> int:
        if self._used >= MAX_DICE:
            raise too_many_dice()
        self._used += 1
        if sides <= 0 or sides > MAX_SIDES:
            return 0
        value = self._dice.roll(sides)
        self.rolls.append((sides, value))
        return value

    def roll_barabara(self, times: int, sides: int) -> list[int]:
        """`times` dice of `sides`; none at all outside 1..MAX_TIMES (BCDice's `roll_barabara`)."""
        if self._used + times > MAX_DICE:
            raise too_many_dice()
        if times <= 0 or times > MAX_TIMES:
            return []
        # `roll_once` times over, without its per-die checks: the budget was checked for all of them.
        self._used += times
        if sides <= 0 or sides > MAX_SIDES:
            return [0] * times
        batch = self._batch
        faces = batch(sides, times) if batch is not None else roll_many(self._dice, sides, times)
        self.rolls.extend(zip(repeat(sides), faces))
        return faces

    def roll_d66(self, order: str) -> int:
        """Two d6 read as tens and units; order "A" ascending, "D" descending, else as rolled."""
        first, second = self.roll_once(6), self.roll_once(6)
        if (order == "A" and first > second) or (order == "D" and first < second):
            first, second = second, first
        return first * 10 + second

    def roll_index(self, size: int) -> int:
        return self.roll_once(size) - 1
