from __future__ import annotations

from parser.bcdice.arithmetic import Chain, Num
from parser.bcdice.tally_dice import TallyDice, parse


def test_y_hides_and_z_shows_zero_counts() -> None:
    assert parse("20tz6") == TallyDice(False, Num(20), Num(6), True)
    assert parse("S20TY6 コメント") == TallyDice(True, Num(20), Num(6), False)
    assert parse("(1+2)TY(3*2)").times == Chain(Num(1), (("+", Num(2)),))


def test_not_tally() -> None:
    assert parse("20T6") is None
    assert parse("20TX6") is None
    assert parse("20TY6+1") is None
