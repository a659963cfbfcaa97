from __future__ import annotations

from parser.bcdice.arithmetic import Chain, Neg, Num, Paren
from parser.bcdice.calc import parse


def test_parentheses_are_kept() -> None:
    assert parse("c(1+2)").expr == Paren(Chain(Num(1), (("+", Num(2)),)))


def test_secret_and_signs() -> None:
    command = parse("sc-1")
    assert command.secret and command.expr == Neg(Num(1))


def test_not_calculations() -> None:
    assert parse("C1D6") is None
    assert parse("c1+4*") is None
    assert parse("C") is None
