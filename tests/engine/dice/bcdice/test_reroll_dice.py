from __future__ import annotations

from engine.dice.bcdice.reroll_dice import BAD_CONDITION


def test_conditions_that_never_stop_are_refused(run) -> None:
    assert run("2R6[1]").text == f"2R6[1] ＞ {BAD_CONDITION}"
    assert run("2R6[<=6]").text == f"2R6[<=6] ＞ {BAD_CONDITION}"
    assert run("2R6").text == f"2R6 ＞ {BAD_CONDITION}"


def test_not_equal_condition_and_its_echo(run) -> None:
    assert run("1R6[<>3]", (6, 3)).text == "(1R6[<>3]) ＞ 3 ＞ 成功数0"
    assert run("2R6[=6]>=5", (6, 6), (6, 2), (6, 5)).text == "(2R6[=6]>=5) ＞ 6,2 + 5 ＞ 成功数2"
