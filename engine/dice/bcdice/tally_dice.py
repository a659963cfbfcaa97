"""Tally dice `xTYy` / `xTZy` (BCDice's TallyDice): the faces, then how many of each face.

BCDice answers nothing when the count or the sides are not positive, and refuses more than 20 sides.
"""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import value
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.tally_dice import TallyDice

MAX_SIDES = 20  # BCDice's TallyDice::Node::Command::MAX_SIDES


def evaluate(command: TallyDice, roller: Roller) -> Answer | None:
    times, sides = value(command.times), value(command.sides)
    if times <= 0 or sides <= 0:
        return None
    notation = f"({times}T{'Z' if command.show_zeros else 'Y'}{sides})"
    if sides > MAX_SIDES:
        # BCDice builds this answer without the secret flag.
        return Answer(f"{notation} ＞ 面数は1以上、{MAX_SIDES}以下としてください")
    faces = roller.roll_barabara(times, sides)
    counts = [faces.count(face) for face in range(1, sides + 1)]
    tally = ", ".join(
        f"[{face}]×{count}" for face, count in enumerate(counts, start=1) if count or command.show_zeros
    )
    return Answer(stringify.join([notation, stringify.faces_text(faces), tally]), secret=command.secret)
