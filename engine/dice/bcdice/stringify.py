"""BCDice's output text: separators, operators and the echo of commands as BCDice prints them."""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice.bcdice.tree import RolledDice
from parser.bcdice.arithmetic import DIV_CEIL, DIV_FLOOR, DIV_ROUND, DIVISIONS, Chain, Neg, Node, Num, Paren

SEP = " ＞ "

# How each family prints the suffix of a division: a sum writes round-up as U, the calculator as C.
SUM_ROUNDING = {DIV_CEIL: "U", DIV_ROUND: "R", DIV_FLOOR: "F"}
CALC_ROUNDING = {DIV_CEIL: "C", DIV_ROUND: "R", DIV_FLOOR: "F"}


def join(parts: Iterable[str]) -> str:
    return SEP.join(parts)


def cmp_text(op: str | None) -> str:
    """A comparison operator as BCDice echoes it: `==` is `=`, `!=` is `<>`."""
    if op is None:
        return ""
    return {"==": "=", "!=": "<>"}.get(op, op)


def modifier_text(number: int) -> str:
    """BCDice's `Format.modifier`: `+3`, `-3`, or nothing for 0."""
    if number == 0:
        return ""
    return f"+{number}" if number > 0 else str(number)


def faces_text(faces: Iterable[int], separator: str = ",") -> str:
    return separator.join(map(str, faces))


def expression(node: Node, rounding: dict[str, str] = CALC_ROUNDING) -> str:
    """An expression as written (signs, parentheses and chains kept), rolled dice as `2D6`."""
    return _text(node, rounding, interim=False)


def interim(node: Node) -> str:
    """A rolled sum's breakdown: each roll as `total[faces]`, numbers and operators as written."""
    return _text(node, SUM_ROUNDING, interim=True)


def dice_notation(dice: RolledDice) -> str:
    keep = f"{dice.keep}{dice.keep_count}" if dice.keep is not None else ""
    return f"{dice.times}D{dice.sides}{keep}"


def _text(node: Node, rounding: dict[str, str], *, interim: bool) -> str:
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, RolledDice):
        return f"{node.total}[{faces_text(node.faces)}]" if interim else dice_notation(node)
    if isinstance(node, Chain):
        parts = [_text(node.first, rounding, interim=interim)]
        for op, operand in node.rest:
            operand_text = _text(operand, rounding, interim=interim)
            if op in DIVISIONS:
                parts.append(f"/{operand_text}{rounding.get(op, '')}")
            else:
                parts.append(f"{op}{operand_text}")
        return "".join(parts)
    if isinstance(node, Neg):
        return "-" * node.count + _text(node.body, rounding, interim=interim)
    if isinstance(node, Paren):
        return f"({_text(node.inner, rounding, interim=interim)})"
    raise TypeError(f"cannot print {node!r}")
