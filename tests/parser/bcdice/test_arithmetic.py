from __future__ import annotations

from parser.bcdice.arithmetic import (
    DIV,
    DIV_CEIL,
    DIV_FLOOR,
    DIV_ROUND,
    Chain,
    Neg,
    Num,
    Paren,
    keep_parens_unary,
    parse_add,
    parse_expression,
)
from parser.bcdice.lexer import Cursor, tokenize


def parse(text: str, *, keep: bool = False):
    cur = Cursor(tokenize(text))
    node = parse_add(cur, keep_parens_unary) if keep else parse_expression(cur)
    return node if cur.at_end() else None


def test_precedence_is_kept_as_nested_chains() -> None:
    assert parse("1+2*3") == Chain(Num(1), (("+", Chain(Num(2), (("*", Num(3)),))),))


def test_long_chains_stay_flat() -> None:
    node = parse("+".join(["1"] * 500))
    assert isinstance(node, Chain) and len(node.rest) == 499


def test_division_carries_its_rounding_letter() -> None:
    assert parse("7/2U") == Chain(Num(7), ((DIV_CEIL, Num(2)),))
    assert parse("7/2c") == Chain(Num(7), ((DIV_CEIL, Num(2)),))
    assert parse("7/2R") == Chain(Num(7), ((DIV_ROUND, Num(2)),))
    assert parse("7/2F") == Chain(Num(7), ((DIV_FLOOR, Num(2)),))
    assert parse("7/2") == Chain(Num(7), ((DIV, Num(2)),))


def test_sign_runs_are_counted_and_plus_signs_vanish() -> None:
    assert parse("-+-1") == Neg(Num(1), 2)
    assert parse("-" * 3000 + "1") == Neg(Num(1), 3000)
    assert parse("+5") == Num(5)


def test_parentheses_are_dropped_or_kept() -> None:
    assert parse("(1+2)*3") == Chain(Chain(Num(1), (("+", Num(2)),)), (("*", Num(3)),))
    assert parse("(1+2)*3", keep=True) == Chain(Paren(Chain(Num(1), (("+", Num(2)),))), (("*", Num(3)),))


def test_incomplete_expressions_do_not_parse() -> None:
    assert parse("1+") is None
    assert parse("(1+2") is None
    assert parse("1+2)") is None
    assert parse("1*/2") is None
