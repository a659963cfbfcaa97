"""Integer expressions: the nodes every family shares and BCDice's `Arithmetic` grammar.

    add  : mul (("+" | "-") mul)*
    mul  : unary (("*" unary) | ("/" unary rounding))*
    unary: ("+" | "-")* term
    term : "(" add ")" | NUMBER
    rounding: "U" | "C" (round up) | "R" (round half away from zero) | "F" (down) | nothing

Operator chains are kept flat (`Chain`) and sign runs are counted (`Neg.count`), so only parentheses
make the tree deeper. The calculator `C(...)` keeps parentheses for its echo; the other families
(xBy, xTYy, xRy, xUy) drop them, as BCDice does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parser.bcdice.lexer import Cursor

# Operators of a Chain. Division carries its rounding: "/" is the game system's default (floor).
ADD, SUB, MUL = "+", "-", "*"
DIV, DIV_CEIL, DIV_ROUND, DIV_FLOOR = "/", "/U", "/R", "/F"
DIVISIONS = frozenset({DIV, DIV_CEIL, DIV_ROUND, DIV_FLOOR})


@dataclass(frozen=True, slots=True)
class Num:
    value: int


@dataclass(frozen=True, slots=True)
class Neg:
    """`count` minus signs in front of `body` (BCDice's nested Negative/Negate nodes)."""

    body: Node
    count: int = 1


@dataclass(frozen=True, slots=True)
class Paren:
    inner: Node


@dataclass(frozen=True, slots=True)
class Chain:
    """`first op1 x1 op2 x2 ...`, evaluated left to right; all ops of one chain share a precedence."""

    first: Node
    rest: tuple[tuple[str, Node], ...]


# Families add their own leaves (add_dice.DiceRoll); Node is open on purpose.
Node = object

Unary = Callable[[Cursor], "Node | None"]


def accept_sign(cur: Cursor) -> str | None:
    """`+` or `-` at the cursor, consumed; None when neither stands there."""
    return cur.accept_either(ADD, SUB)


def parse_add(cur: Cursor, unary: Unary, *, expand_negation: bool = False) -> Node | None:
    """`add`; with `expand_negation` (AddDice), `a + -b` becomes `a - b` and `a - -b` becomes `a + b`."""
    first = parse_mul(cur, unary)
    if first is None:
        return None
    rest: list[tuple[str, Node]] = []
    while (op := accept_sign(cur)) is not None:
        node = parse_mul(cur, unary)
        if node is None:
            return None
        if expand_negation and isinstance(node, Neg):
            op = SUB if op == ADD else ADD
            node = node.body
        rest.append((op, node))
    return Chain(first, tuple(rest)) if rest else first


def parse_mul(cur: Cursor, unary: Unary, first: Node | None = None) -> Node | None:
    """`mul`; `first` is an operand the caller already read (UpperDice decides late what it has)."""
    if first is None:
        first = unary(cur)
        if first is None:
            return None
    rest: list[tuple[str, Node]] = []
    while (op := cur.accept_either(MUL, DIV)) is not None:
        node = unary(cur)
        if node is None:
            return None
        if op == DIV:
            op = _rounding(cur)
        rest.append((op, node))
    return Chain(first, tuple(rest)) if rest else first


def _rounding(cur: Cursor) -> str:
    kind = cur.accept_either("U", "C") or cur.accept_either("R", "F")
    return _ROUNDINGS[kind] if kind is not None else DIV


_ROUNDINGS = {"U": DIV_CEIL, "C": DIV_CEIL, "R": DIV_ROUND, "F": DIV_FLOOR}


def count_minus(cur: Cursor) -> int:
    """Consume a run of `+` and `-` signs; return how many minus signs it held."""
    return cur.count_minus()


def parse_term(cur: Cursor, *, keep_parens: bool = False) -> Node | None:
    """`term`: a number, or a parenthesised `add` of the Arithmetic grammar."""
    if cur.accept("("):
        cur.enter()
        inner = parse_add(cur, keep_parens_unary if keep_parens else unary)
        cur.leave()
        if inner is None or not cur.accept(")"):
            return None
        return Paren(inner) if keep_parens else inner
    number = cur.accept_number()
    return Num(number) if number is not None else None


def unary(cur: Cursor) -> Node | None:
    """`unary` of the Arithmetic grammar, parentheses dropped."""
    minus = count_minus(cur)
    body = parse_term(cur)
    if body is None:
        return None
    return Neg(body, minus) if minus else body


def keep_parens_unary(cur: Cursor) -> Node | None:
    """`unary` of the calculator grammar: parentheses kept for the echo `c(...)`."""
    minus = count_minus(cur)
    body = parse_term(cur, keep_parens=True)
    if body is None:
        return None
    return Neg(body, minus) if minus else body


def parse_expression(cur: Cursor) -> Node | None:
    """An Arithmetic `add` with parentheses dropped (targets, thresholds, modifiers)."""
    return parse_add(cur, unary)
