"""Sums `xDy` (BCDice's AddDice): roll every die of the expression, total it, judge a target.

BCDice prints `(echo) ＞ breakdown ＞ total`, leaving the breakdown out when the whole command is one
plain roll of at most one die (`(1D6) ＞ 5`), and adds 成功/失敗 when a numeric target was given.
"""

from __future__ import annotations

from engine.bcdice import stringify
from engine.bcdice.arithmetic import apply, compare, value
from engine.bcdice.result import BCDiceResult
from engine.bcdice.roller import Roller
from engine.bcdice.tree import RolledDice
from parser.bcdice.add_dice import (
    DROP_HIGHEST,
    DROP_LOWEST,
    KEEP_HIGHEST,
    UNDECIDED,
    AddDice,
    DiceRoll,
)
from parser.bcdice.arithmetic import Chain, Neg, Node, Num, Paren

IMPLICIT_SIDES = 6  # BCDice DiceBot's `sides_implicit_d`


def evaluate(command: AddDice, roller: Roller) -> BCDiceResult:
    rolled: list[int] = []
    tree, total = _roll(command.lhs, roller, rolled)
    target = _target(command)
    echo = stringify.expression(tree, stringify.SUM_ROUNDING) + stringify.cmp_text(command.cmp_op) + target
    if len(rolled) <= 1 and isinstance(command.lhs, DiceRoll) and command.lhs.keep is None:
        parts = [f"({echo})", str(total)]
    else:
        parts = [f"({echo})", stringify.interim(tree), str(total)]
    success = failure = False
    if command.cmp_op is not None and command.target is not None and command.target != UNDECIDED:
        success = compare(total, command.cmp_op, value(command.target, zero_is_one=True))
        failure = not success
        parts.append("成功" if success else "失敗")
    return BCDiceResult(
        stringify.join(parts), secret=command.secret, success=success, failure=failure, total=total
    )


def _target(command: AddDice) -> str:
    if command.target is None:
        return ""
    if command.target == UNDECIDED:
        return UNDECIDED
    return str(value(command.target, zero_is_one=True))


def _roll(node: Node, roller: Roller, rolled: list[int]) -> tuple[Node, int]:
    """The evaluated node and its value; every face rolled is appended to `rolled`."""
    if isinstance(node, Num):
        return node, node.value
    if isinstance(node, DiceRoll):
        dice = _roll_dice(node, roller)
        rolled.extend(dice.faces)
        return dice, dice.total
    if isinstance(node, Chain):
        first, total = _roll(node.first, roller, rolled)
        rest: list[tuple[str, Node]] = []
        for op, operand in node.rest:
            evaluated, operand_value = _roll(operand, roller, rolled)
            total = apply(op, total, operand_value, zero_is_one=True)
            rest.append((op, evaluated))
        return Chain(first, tuple(rest)), total
    if isinstance(node, Neg):
        body, body_value = _roll(node.body, roller, rolled)
        return Neg(body, node.count), -body_value if node.count % 2 else body_value
    if isinstance(node, Paren):
        inner, inner_value = _roll(node.inner, roller, rolled)
        return Paren(inner), inner_value
    raise TypeError(f"not a sum node: {node!r}")


def _roll_dice(node: DiceRoll, roller: Roller) -> RolledDice:
    times = value(node.times, zero_is_one=True)
    sides = IMPLICIT_SIDES if node.sides is None else value(node.sides, zero_is_one=True)
    if sides == 66:
        # Every die of xD66 is a D66 (tens and units), before BCDice's 200-dice rule applies.
        faces = [roller.roll_d66("N") for _ in range(max(times, 0))]
    else:
        faces = roller.roll_barabara(times, sides)
    if node.keep is None:
        return RolledDice(times, sides, None, None, tuple(faces), sum(faces))
    count = value(node.keep_count, zero_is_one=True) if node.keep_count is not None else 1
    ordered = sorted(faces)
    kept = _filter(ordered, node.keep, max(count, 0))
    return RolledDice(times, sides, node.keep, count, tuple(ordered), sum(kept))


def _filter(ordered: list[int], keep: str, count: int) -> list[int]:
    highest_first = ordered[::-1]
    if keep == KEEP_HIGHEST:
        return highest_first[:count]
    if keep == DROP_HIGHEST:
        return highest_first[count:]
    if keep == DROP_LOWEST:
        return ordered[count:]
    return ordered[:count]
