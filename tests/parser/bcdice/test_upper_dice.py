from __future__ import annotations

from parser.bcdice.arithmetic import Chain, Neg, Num
from parser.bcdice.upper_dice import parse


def test_notations_modifier_and_threshold() -> None:
    command = parse("2U6+2U4[4]+6-1>=8")
    assert len(command.notations) == 2
    assert command.threshold == Num(4)
    assert command.modifier == Chain(Num(6), (("-", Num(1)),))
    assert (command.cmp_op, command.target) == (">=", Num(8))


def test_a_plus_before_a_number_starts_the_modifier() -> None:
    command = parse("3U6+2*3@6")
    assert command.modifier == Chain(Num(2), (("*", Num(3)),))
    assert command.threshold == Num(6)
    assert parse("3U6-2@6").modifier == Neg(Num(2))


def test_not_upper() -> None:
    assert parse("4U6[6]+11>=21@4") is None
    assert parse("4U6+2U") is None
    assert parse("4U6+1[6]") is None
