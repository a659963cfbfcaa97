"""Exploding dice `xUy` (BCDice's UpperDice): a die at or over the threshold is rolled again and added.

    command: "S"? notations bracket? modifier? (CMP add)?        `3U6[6]+1>=10`
           | "S"? notations modifier? (CMP add)? at?             `3U6+1>=10@6`
    notations: term "U" term ("+" term "U" term)*
    modifier : ("+" | "-") mul (("+" | "-") mul)*
    bracket  : "[" add "]"        at: "@" add

After a `+` the parser reads a term, then decides by the next token: `U` continues the notations,
anything else starts the modifier (as BCDice's LALR parser does).
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import (
    ADD,
    SUB,
    Chain,
    Neg,
    Node,
    accept_sign,
    parse_expression,
    parse_mul,
    parse_term,
    unary,
)
from parser.bcdice.barabara_dice import Notation, parse_notation, parse_target
from parser.bcdice.lexer import Cursor, tokenize


@dataclass(frozen=True, slots=True)
class UpperDice:
    secret: bool
    notations: tuple[Notation, ...]
    modifier: Node | None
    cmp_op: str | None
    target: Node | None
    threshold: Node | None


def parse(command: str) -> UpperDice | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    head = _notations(cur)
    if head is None:
        return None
    notations, modifier_parts = head
    threshold: Node | None = None
    bracket = False
    if not modifier_parts and cur.accept("["):
        bracket = True
        threshold = parse_expression(cur)
        if threshold is None or not cur.accept("]"):
            return None
    tail = _modifier_and_target(cur, modifier_parts)
    if tail is None:
        return None
    modifier, target = tail
    if not bracket and cur.accept("@"):
        threshold = parse_expression(cur)
        if threshold is None:
            return None
    if not cur.at_end():
        return None
    return UpperDice(secret, tuple(notations), modifier, *target, threshold)


def _notations(cur: Cursor) -> tuple[list[Notation], list[tuple[str, Node]]] | None:
    """The `+`-joined notations, and the modifier's first part when a `+` is not followed by one."""
    first = parse_notation(cur, "U")
    if first is None:
        return None
    notations = [first]
    while cur.accept(ADD):
        if cur.starts_term():
            term = parse_term(cur)
            if term is None:
                return None
            if cur.accept("U"):
                sides = parse_term(cur)
                if sides is None:
                    return None
                notations.append(Notation(term, sides))
                continue
            operand = parse_mul(cur, unary, first=term)
        else:
            operand = parse_mul(cur, unary)
        if operand is None:
            return None
        return notations, [(ADD, operand)]
    return notations, []


def _modifier_and_target(
    cur: Cursor, parts: list[tuple[str, Node]]
) -> tuple[Node | None, tuple[str | None, Node | None]] | None:
    """The rest of the modifier after `parts`, and the optional `CMP add`."""
    while (op := accept_sign(cur)) is not None:
        operand = parse_mul(cur, unary)
        if operand is None:
            return None
        parts.append((op, operand))
    target = parse_target(cur)
    if target is None:
        return None
    return _modifier(parts), target


def _modifier(parts: list[tuple[str, Node]]) -> Node | None:
    if not parts:
        return None
    (op, first), rest = parts[0], parts[1:]
    head = Neg(first) if op == SUB else first
    return Chain(head, tuple(rest)) if rest else head
