from __future__ import annotations

from parser.bcdice.arithmetic import Num
from parser.bcdice.reroll_dice import parse


def test_condition_in_brackets_or_after_at() -> None:
    bracket = parse("2R4+2R6[<=2]>=4")
    at = parse("2R4+2R6>=4@<=2")
    assert (bracket.reroll_op, bracket.threshold) == (at.reroll_op, at.threshold) == ("<=", Num(2))
    assert len(bracket.notations) == 2
    assert bracket.source == "2R4+2R6[<=2]>=4"


def test_bare_threshold_and_missing_target() -> None:
    command = parse("2R6[3] コメント")
    assert (command.cmp_op, command.reroll_op, command.threshold) == (None, None, Num(3))
    assert command.source == "2R6[3]"


def test_not_reroll() -> None:
    assert parse("2R6[3]>=4@2") is None
    assert parse("2R6[3") is None
    assert parse("2U6") is None
