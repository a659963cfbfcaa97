"""Separate dice `xBy` (BCDice's BarabaraDice): `3B6`, `2B6+4B10>3` counts the dice meeting a target.

command: "S"? notation ("+" notation)* (CMP add)?
notation: term "B" term
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import Node, parse_expression, parse_term
from parser.bcdice.lexer import Cursor, tokenize


@dataclass(frozen=True, slots=True)
class Notation:
    times: Node
    sides: Node


@dataclass(frozen=True, slots=True)
class BarabaraDice:
    secret: bool
    notations: tuple[Notation, ...]
    cmp_op: str | None = None
    target: Node | None = None


def parse(command: str) -> BarabaraDice | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    notations = parse_notations(cur, "B")
    if notations is None:
        return None
    target = parse_target(cur)
    if target is None or not cur.at_end():
        return None
    return BarabaraDice(secret, tuple(notations), *target)


def parse_notations(cur: Cursor, letter: str) -> list[Notation] | None:
    """`term letter term ("+" term letter term)*`, shared with xRy."""
    notations: list[Notation] = []
    while True:
        notation = parse_notation(cur, letter)
        if notation is None:
            return None
        notations.append(notation)
        if not cur.accept("+"):
            return notations


def parse_notation(cur: Cursor, letter: str) -> Notation | None:
    times = parse_term(cur)
    if times is None or not cur.accept(letter):
        return None
    sides = parse_term(cur)
    return Notation(times, sides) if sides is not None else None


def parse_target(cur: Cursor) -> tuple[str | None, Node | None] | None:
    """An optional `CMP add`; None when a comparison is started but not finished."""
    if cur.peek_kind() != "CMP":
        return (None, None)
    cmp_op = cur.accept_cmp()
    if cmp_op is None:
        return None
    target = parse_expression(cur)
    return (cmp_op, target) if target is not None else None
