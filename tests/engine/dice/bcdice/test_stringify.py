from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.tree import RolledDice
from parser.bcdice.arithmetic import DIV_CEIL, Chain, Neg, Num, Paren

ROLL = RolledDice(2, 6, None, None, (5, 3), 8)
KEPT = RolledDice(5, 10, "KH", 3, (2, 3, 5, 8, 8), 21)


def test_expression_and_interim_of_a_rolled_sum() -> None:
    tree = Chain(Paren(Chain(ROLL, (("+", Num(1)),))), ((DIV_CEIL, Num(2)), ("-", Neg(KEPT))))
    assert stringify.expression(tree, stringify.SUM_ROUNDING) == "(2D6+1)/2U--5D10KH3"
    assert stringify.interim(tree) == "(8[5,3]+1)/2U--21[2,3,5,8,8]"


def test_the_calculator_writes_round_up_as_c() -> None:
    assert stringify.expression(Chain(Num(1), ((DIV_CEIL, Num(2)),))) == "1/2C"


def test_comparison_and_modifier_texts() -> None:
    assert [stringify.cmp_text(op) for op in ("==", "!=", ">=", None)] == ["=", "<>", ">=", ""]
    assert [stringify.modifier_text(n) for n in (0, 3, -3)] == ["", "+3", "-3"]
    assert stringify.join(["(1D6)", "5"]) == "(1D6) ＞ 5"
