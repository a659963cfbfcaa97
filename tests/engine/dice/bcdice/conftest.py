"""A helper for the family tests: evaluate a command through recorded dice, all of which must be used."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.dice.bcdice import BCDiceResult, evaluate
from engine.rng import RecordedDice


@pytest.fixture
def run() -> Callable[..., BCDiceResult | None]:
    def evaluate_recorded(command: str, *rands: tuple[int, int]) -> BCDiceResult | None:
        dice = RecordedDice(rands)
        result = evaluate(command, dice)
        assert dice.remaining == 0, "recorded dice left over"
        return result

    return evaluate_recorded
