"""D66 (BCDice's D66Dice): two d6 read as tens and units, sorted as the suffix asks."""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.d66_dice import D66Dice


def evaluate(command: D66Dice, roller: Roller) -> Answer:
    total = roller.roll_d66(command.sort)
    return Answer(f"(D66{command.suffix}){stringify.SEP}{total}", secret=command.secret, total=total)
