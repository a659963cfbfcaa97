"""Exploding dice `xUy` (BCDice's UpperDice): a die at or over the threshold is rolled again and
added to itself; each die's sum (plus the modifier) is judged, or the largest and the total shown."""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import compare, optional_value, value
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.upper_dice import UpperDice


def evaluate(command: UpperDice, roller: Roller) -> Answer:
    dice = [(value(n.times), value(n.sides)) for n in command.notations]
    threshold = optional_value(command.threshold) or 0  # DiceBot has no default threshold
    modifier = optional_value(command.modifier) or 0
    target = optional_value(command.target)
    notation = "+".join(f"{times}U{sides}" for times, sides in dice)
    target_text = "" if target is None else str(target)
    echo = (
        f"({notation}[{threshold}]{stringify.modifier_text(modifier)}"
        f"{stringify.cmp_text(command.cmp_op)}{target_text})"
    )
    if threshold <= 1:
        return Answer(f"{echo}{stringify.SEP}無限ロールの条件がまちがっています", secret=command.secret)

    chains: list[list[int]] = []
    for times, sides in dice:
        for _ in range(max(times, 0)):
            chain = [roller.roll_once(sides)]
            while chain[-1] >= threshold:
                chain.append(roller.roll_once(sides))
            chains.append(chain)

    sums = [sum(chain) for chain in chains]
    if command.cmp_op is not None and target is not None:
        successes = sum(1 for total in sums if compare(total + modifier, command.cmp_op, target))
        result = f"成功数{successes}"
    else:
        largest = str(max(sums) + modifier) if sums else ""
        result = f"{largest}/{sum(sums) + modifier}(最大/合計)"
    breakdown = ",".join(
        str(total) if len(chain) == 1 else f"{total}[{stringify.faces_text(chain)}]"
        for total, chain in zip(sums, chains, strict=True)
    )
    return Answer(
        stringify.join([echo, breakdown + stringify.modifier_text(modifier), result]), secret=command.secret
    )
