"""Sum dice `xDy` (BCDice's AddDice): `2D6+1`, `(2+3)D6`, `D20`, `3D`, `5D10KH3`, `3D6MAX`, `2D6>=7`.

    command: "S"? add (CMP target)?       (the left side must roll a die, the target must not)
    target : add | "?"
    unary  : ("+" | "-")* dice            (an even number of minus signs cancels out)
    dice   : term "D" term filter?  |  term "D" filter?  |  "D" term filter?  |  term
    filter : ("KH" | "KL" | "DH" | "DL") term?  |  "MAX" | "MIN"
    term   : "(" add ")" | NUMBER

`D66` alone is not a sum (D66Dice reads it); `2D66` is, each die being a D66.
"""

from __future__ import annotations

from dataclasses import dataclass

from parser.bcdice.arithmetic import Chain, Neg, Node, Num, Paren, count_minus, parse_add
from parser.bcdice.lexer import Cursor, tokenize

KEEP_HIGHEST, KEEP_LOWEST, DROP_HIGHEST, DROP_LOWEST = "KH", "KL", "DH", "DL"


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """`times D sides`; `sides` None means the game system's implicit sides (6).

    `keep` is one of KH KL DH DL with `keep_count` dice, or None for a plain roll (BCDice's
    DiceRoll class, which alone may print a single die without its breakdown).
    """

    times: Node
    sides: Node | None
    keep: str | None = None
    keep_count: Node | None = None


UNDECIDED = "?"


@dataclass(frozen=True, slots=True)
class AddDice:
    secret: bool
    lhs: Node
    cmp_op: str | None = None
    target: Node | str | None = None  # an expression, or UNDECIDED for `2D6>=?`


def parse(command: str) -> AddDice | None:
    cur = Cursor(tokenize(command))
    secret = cur.accept("S") is not None
    lhs = parse_add(cur, _unary, expand_negation=True)
    if lhs is None or not includes_dice(lhs):
        return None
    if cur.at_end():
        return AddDice(secret, lhs)
    cmp_op = cur.accept_cmp()
    if cmp_op is None:
        return None
    if cur.accept("?"):
        target: Node | str = UNDECIDED
    else:
        parsed = parse_add(cur, _unary, expand_negation=True)
        if parsed is None or includes_dice(parsed):
            return None
        target = parsed
    return AddDice(secret, lhs, cmp_op, target) if cur.at_end() else None


def includes_dice(node: Node) -> bool:
    if isinstance(node, DiceRoll):
        return True
    if isinstance(node, Chain):
        return includes_dice(node.first) or any(includes_dice(part) for _, part in node.rest)
    if isinstance(node, Neg):
        return includes_dice(node.body)
    if isinstance(node, Paren):
        return includes_dice(node.inner)
    return False


def _unary(cur: Cursor) -> Node | None:
    minus = count_minus(cur)
    body = _dice(cur)
    if body is None:
        return None
    return Neg(body) if minus % 2 else body


def _dice(cur: Cursor) -> Node | None:
    if cur.accept("D"):
        sides = _term(cur)
        if sides is None or includes_dice(sides):
            return None
        if isinstance(sides, Num) and sides.value == 66:
            return None  # `D66` is D66Dice's
        return _with_filter(cur, Num(1), sides)
    times = _term(cur)
    if times is None:
        return None
    if not cur.accept("D"):
        return times
    sides = _term(cur) if cur.starts_term() else None
    if includes_dice(times) or (sides is not None and includes_dice(sides)):
        return None
    return _with_filter(cur, times, sides)


def _with_filter(cur: Cursor, times: Node, sides: Node | None) -> Node | None:
    kind = cur.peek_kind()
    if kind not in ("K", "D", "M"):
        return DiceRoll(times, sides)
    keep = _filter(cur)
    if keep is None:
        return None
    if keep in ("MAX", "MIN"):
        return DiceRoll(times, sides, KEEP_HIGHEST if keep == "MAX" else KEEP_LOWEST, Num(1))
    count = _term(cur) if cur.starts_term() else Num(1)
    if count is None or includes_dice(count):
        return None
    return DiceRoll(times, sides, keep, count)


def _filter(cur: Cursor) -> str | None:
    if cur.accept("M"):
        if cur.accept("A"):
            return "MAX" if cur.accept("X") else None
        if cur.accept("I"):
            return "MIN" if cur.accept("N") else None
        return None
    first = cur.accept_either("K", "D")
    if first is None:
        return None
    second = cur.accept_either("H", "L")
    return first + second if second is not None else None


def _term(cur: Cursor) -> Node | None:
    if cur.accept("("):
        cur.enter()
        inner = parse_add(cur, _unary, expand_negation=True)
        cur.leave()
        if inner is None or not cur.accept(")"):
            return None
        return Paren(inner)
    number = cur.accept_number()
    return Num(number) if number is not None else None
