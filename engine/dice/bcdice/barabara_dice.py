"""Separate dice `xBy` (BCDice's BarabaraDice): every face listed, and how many met the target."""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import compare, optional_value, value
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.barabara_dice import BarabaraDice


def evaluate(command: BarabaraDice, roller: Roller) -> Answer:
    dice = [(value(n.times), value(n.sides)) for n in command.notations]
    target = optional_value(command.target)
    faces = [face for times, sides in dice for face in roller.roll_barabara(times, sides)]
    notation = "+".join(f"{times}B{sides}" for times, sides in dice)
    target_text = "" if target is None else str(target)
    parts = [f"({notation}{stringify.cmp_text(command.cmp_op)}{target_text})", stringify.faces_text(faces)]
    if command.cmp_op is not None and target is not None:
        successes = sum(1 for face in faces if compare(face, command.cmp_op, target))
        parts.append(f"成功数{successes}")
    return Answer(stringify.join(parts), secret=command.secret)
