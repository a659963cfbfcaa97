"""Tally dice `xTYy` / `xTZy` (BCDice's TallyDice): roll and count each face (`Z` also lists zeros).

command: "S"? term "T" ("Y" | "Z") term
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import Node, parse_term
from parser.bcdice.lexer import Cursor, tokenize


@dataclass(frozen=True, slots=True)
class TallyDice:
    secret: bool
    times: Node
    sides: Node
    show_zeros: bool


def parse(command: str) -> TallyDice | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    times = parse_term(cur)
    if times is None or not cur.accept("T"):
        return None
    if cur.accept("Y"):
        show_zeros = False
    elif cur.accept("Z"):
        show_zeros = True
    else:
        return None
    sides = parse_term(cur)
    if sides is None or not cur.at_end():
        return None
    return TallyDice(secret, times, sides, show_zeros)
