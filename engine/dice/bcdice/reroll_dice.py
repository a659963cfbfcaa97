"""Reroll dice `xRy` (BCDice's RerollDice): dice meeting the reroll condition are rolled again, in
rounds, and every face of every round is judged against the target."""

from __future__ import annotations

from collections import deque

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import compare, optional_value, value
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.reroll_dice import RerollDice

REROLL_LIMIT = 10000  # BCDice's RerollDice::REROLL_LIMIT: rounds of rolling

BAD_CONDITION = "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"


def evaluate(command: RerollDice, roller: Roller) -> Answer:
    target = optional_value(command.target)
    reroll_op = command.reroll_op or command.cmp_op or ">="
    threshold = optional_value(command.threshold)
    if threshold is None:
        threshold = target
    dice = [(value(n.times), value(n.sides)) for n in command.notations]
    if threshold is None or not all(_valid(reroll_op, threshold, sides) for _, sides in dice):
        return Answer(f"{command.source}{stringify.SEP}{BAD_CONDITION}", secret=command.secret)

    rounds: list[list[int]] = []
    queue = deque(dice)
    while queue and len(rounds) < REROLL_LIMIT:
        times, sides = queue.popleft()
        faces = roller.roll_barabara(times, sides)
        rounds.append(faces)
        again = sum(1 for face in faces if compare(face, reroll_op, threshold))
        if again:
            queue.append((again, sides))

    successes = 0
    if command.cmp_op is not None and target is not None:
        successes = sum(1 for faces in rounds for face in faces if compare(face, command.cmp_op, target))
    notation = "+".join(f"{times}R{sides}" for times, sides in dice)
    condition = "" if reroll_op == command.cmp_op else stringify.cmp_text(reroll_op)
    target_text = "" if target is None else str(target)
    echo = f"({notation}[{condition}{threshold}]{stringify.cmp_text(command.cmp_op)}{target_text})"
    breakdown = " + ".join(stringify.faces_text(faces) for faces in rounds)
    return Answer(stringify.join([echo, breakdown, f"成功数{successes}"]), secret=command.secret)


def _valid(op: str, threshold: int, sides: int) -> bool:
    """BCDice's RerollCondition#valid?: a condition every face could meet would never stop."""
    if op == "<=":
        return threshold < sides
    if op == "<":
        return threshold <= sides
    if op == ">=":
        return threshold > 1
    if op == ">":
        return threshold >= 1
    if op == "!=":
        return 1 <= threshold <= sides
    return True
