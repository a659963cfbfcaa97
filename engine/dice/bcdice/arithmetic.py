"""Integer arithmetic of the command language, with BCDice's rounding and threadgm's size cap.

Division rounds as BCDice does for the system-independent DiceBot: `/` and `/F` down (toward minus
infinity, Ruby's Integer#/), `/U` (written U or C) up, `/R` half away from zero (Ruby's Float#round),
computed exactly rather than through floats. A sum (`xDy`) divided by zero gives 1, as in BCDice; the
calculator and the counts of the other families stop with BCDice's zero-division message.

Every value is capped at MAX_ABS_VALUE (10**100, a hundred digits): Ruby would go on to any size, but
no dice game needs more and a chain of multiplications must never build a million-digit integer.
"""

from __future__ import annotations

from engine.dice.bcdice.roller import Refused
from parser.bcdice.arithmetic import ADD, DIV_CEIL, DIV_ROUND, MUL, SUB, Chain, Neg, Node, Num, Paren

MAX_ABS_VALUE = 10**100

ZERO_DIVISION = "ゼロ除算が発生したため計算できませんでした"


class ZeroDivision(Refused):
    def __init__(self) -> None:
        super().__init__(ZERO_DIVISION)


def too_large() -> Refused:
    return Refused("数値が大きすぎます（100桁まで）")


def apply(op: str, lhs: int, rhs: int, *, zero_is_one: bool = False) -> int:
    """`lhs op rhs` for one operator of a Chain."""
    if op == ADD:
        value = lhs + rhs
    elif op == SUB:
        value = lhs - rhs
    elif op == MUL:
        value = lhs * rhs
    elif rhs == 0:
        if zero_is_one:
            return 1
        raise ZeroDivision()
    elif op == DIV_CEIL:
        value = -((-lhs) // rhs)
    elif op == DIV_ROUND:
        magnitude = (2 * abs(lhs) + abs(rhs)) // (2 * abs(rhs))
        value = -magnitude if (lhs < 0) != (rhs < 0) else magnitude
    else:
        value = lhs // rhs
    if abs(value) > MAX_ABS_VALUE:
        raise too_large()
    return value


def value(node: Node, *, zero_is_one: bool = False) -> int:
    """The value of a dice-free expression."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Chain):
        total = value(node.first, zero_is_one=zero_is_one)
        for op, operand in node.rest:
            total = apply(op, total, value(operand, zero_is_one=zero_is_one), zero_is_one=zero_is_one)
        return total
    if isinstance(node, Neg):
        body = value(node.body, zero_is_one=zero_is_one)
        return -body if node.count % 2 else body
    if isinstance(node, Paren):
        return value(node.inner, zero_is_one=zero_is_one)
    raise TypeError(f"not an arithmetic node: {node!r}")


def optional_value(node: Node | None) -> int | None:
    return None if node is None else value(node)


def compare(lhs: int, op: str, rhs: int) -> bool:
    if op == "<=":
        return lhs <= rhs
    if op == ">=":
        return lhs >= rhs
    if op == "<":
        return lhs < rhs
    if op == ">":
        return lhs > rhs
    if op == "!=":
        return lhs != rhs
    return lhs == rhs
