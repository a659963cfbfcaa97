"""Reroll dice `xRy` (BCDice's RerollDice): dice meeting the reroll condition are rolled again.

command: "S"? notations bracket? (CMP add)?         `2R6[>4]>=4`
       | "S"? notations (CMP add)? at?              `2R6>=4@>4`
notations: term "R" term ("+" term "R" term)*
bracket: "[" CMP? add "]"       at: "@" CMP? add
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import Node, parse_expression
from parser.bcdice.barabara_dice import Notation, parse_notations, parse_target
from parser.bcdice.lexer import Cursor, first_word, tokenize


@dataclass(frozen=True, slots=True)
class RerollDice:
    secret: bool
    notations: tuple[Notation, ...]
    cmp_op: str | None
    target: Node | None
    reroll_op: str | None
    threshold: Node | None
    source: str  # the command word as written, echoed by BCDice's error message


def parse(command: str) -> RerollDice | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    notations = parse_notations(cur, "R")
    if notations is None:
        return None
    reroll_op: str | None = None
    threshold: Node | None = None
    bracket = cur.accept("[") is not None
    if bracket:
        condition = _condition(cur)
        if condition is None or not cur.accept("]"):
            return None
        reroll_op, threshold = condition
    target = parse_target(cur)
    if target is None:
        return None
    if not bracket and cur.accept("@"):
        condition = _condition(cur)
        if condition is None:
            return None
        reroll_op, threshold = condition
    if not cur.at_end():
        return None
    return RerollDice(secret, tuple(notations), *target, reroll_op, threshold, first_word(command))


def _condition(cur: Cursor) -> tuple[str | None, Node] | None:
    reroll_op = None
    if cur.peek_kind() == "CMP":
        reroll_op = cur.accept_cmp()
        if reroll_op is None:
            return None
    threshold = parse_expression(cur)
    return (reroll_op, threshold) if threshold is not None else None
