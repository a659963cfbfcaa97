from __future__ import annotations

from parser.bcdice.arithmetic import Chain, Num
from parser.bcdice.barabara_dice import Notation, parse


def test_notations_and_target() -> None:
    command = parse("2b6+(1*2)b(2+4)>3")
    assert command.notations == (
        Notation(Num(2), Num(6)),
        Notation(Chain(Num(1), (("*", Num(2)),)), Chain(Num(2), (("+", Num(4)),))),
    )
    assert (command.cmp_op, command.target) == (">", Num(3))
    assert parse("S3B6").secret


def test_not_barabara() -> None:
    assert parse("2b6+1") is None
    assert parse("2b6>") is None
    assert parse("2b") is None
