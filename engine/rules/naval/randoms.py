"""The random numbers of one naval period: each island's are drawn once, A, B, C, ... from the stream
`naval/{island}`, and handed out in order to the battles that island's orders start and that a random
number decides. Recorded numbers (a GM preview's RANDOMS.txt) may be fewer than the option's count:
only a battle that needs a missing one is an error (`RandomsShortError`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engine.rng import DiceError, RandomSource, SeededDice
from engine.rules.naval.results import LETTERS, RandomUse


class RandomsShortError(ValueError):
    """Recorded random numbers (a GM preview's RANDOMS.txt) ran out before the option's count."""


class PeriodRandoms:
    """Every island's numbers for the period (`drawn`, as the report publishes them) and how many of
    them each island's battles have taken so far."""

    def __init__(self, islands: Iterable[str], count: int, source: RandomSource | None) -> None:
        self.count = count
        self.drawn = {island: _draw(source, island, count) for island in islands} if source else {}
        self._used: dict[str, int] = defaultdict(int)

    def fresh(self) -> PeriodRandoms:
        """The same numbers with none handed out yet (the period resolved again)."""
        again = PeriodRandoms((), self.count, None)
        again.drawn = self.drawn
        return again

    def take(self, island: str) -> RandomUse | str:
        """The island's next number, or why the battle gets none (the period's count is used up)."""
        count = self.count
        k = self._used[island]
        if k >= count:
            return f"乱数不足で無効（{island}島の乱数は{LETTERS[count - 1]}までで、この戦闘に割り当てる乱数がない）"
        numbers = self.drawn.get(island, [])
        if k >= len(numbers):
            raise RandomsShortError(
                f"{island}島の乱数が足りません：乱数{LETTERS[k]}が必要ですが{len(numbers)}個しか与えられていません"
            )
        self._used[island] = k + 1
        return RandomUse(island, LETTERS[k], numbers[k])


def _draw(source: RandomSource, island: str, count: int) -> list[int]:
    values: list[int] = []
    try:
        dice = source.stream(f"naval/{island}")
        if isinstance(dice, SeededDice):  # the island's numbers in one call (the same as one by one)
            return dice.roll_many(100, count)
        for _ in range(count):
            values.append(dice.roll(100))
    except DiceError:
        pass  # recorded numbers are shorter; only a battle that needs a missing one is an error
    return values
