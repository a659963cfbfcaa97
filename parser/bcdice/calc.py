"""The calculator `C(...)` (BCDice's Calc): `C(1+2)`, `c1/2R`; parentheses are kept for the echo.

command: "S"? "C" add
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import Node, keep_parens_unary, parse_add
from parser.bcdice.lexer import Cursor, tokenize


@dataclass(frozen=True, slots=True)
class Calc:
    secret: bool
    expr: Node


def parse(command: str) -> Calc | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    if not cur.accept("C"):
        return None
    expr = parse_add(cur, keep_parens_unary)
    if expr is None or not cur.at_end():
        return None
    return Calc(secret, expr)
