from __future__ import annotations


def test_sum_of_d66_dice_and_implicit_sides(run) -> None:
    assert run("1D66", (6, 3), (6, 5)).text == "(1D66) ＞ 35"
    assert run("2D", (6, 1), (6, 2)).text == "(2D6) ＞ 3[1,2] ＞ 3"
    assert run("D(66)", (6, 1), (6, 2)).text == "(1D66) ＞ 12"


def test_totals_are_kept_for_tables(run) -> None:
    assert run("2D6+1", (6, 2), (6, 3)).total == 6


def test_limits_follow_bcdice(run) -> None:
    assert run("201D6").text == "(201D6) ＞ 0"
    assert run("1D10001").text == "(1D10001) ＞ 0"
    assert run("2D0").text == "(2D0) ＞ 0[0,0] ＞ 0"
    assert run("(1-3)D6").text == "(-2D6) ＞ 0"


def test_division_by_zero_gives_one(run) -> None:
    assert run("1D6/0U", (6, 3)).text == "(1D6/0U) ＞ 3[3]/0U ＞ 1"


def test_undecided_target_judges_nothing(run) -> None:
    result = run("2d6>=?", (6, 3), (6, 4))
    assert result.text == "(2D6>=?) ＞ 7[3,4] ＞ 7"
    assert not result.success and not result.failure


def test_keep_count_below_zero_keeps_nothing(run) -> None:
    assert run("2D6KH(0-1)", (6, 2), (6, 5)).text == "(2D6KH-1) ＞ 0[2,5] ＞ 0"


def test_parentheses_around_rolls_show_in_both_echoes(run) -> None:
    assert run("-(1D6)+1", (6, 4)).text == "(-(1D6)+1) ＞ -(4[4])+1 ＞ -3"
