from __future__ import annotations


def test_repeat_shares_the_dice_and_reports_each_run(run) -> None:
    result = run("x2 S1D6", (6, 2), (6, 5))
    assert result.text == "#1\n(1D6) ＞ 2\n\n#2\n(1D6) ＞ 5"
    assert result.secret
    assert result.rolls == ((6, 2), (6, 5))


def test_nesting_is_refused_in_any_case(run) -> None:
    assert run("x2 X2 1D6").text == "Repeatコマンドの重複はできません"


def test_a_repeat_whose_runs_all_answer_nothing(run) -> None:
    assert run("x2 0TY6").text == "繰り返し対象のコマンドが実行できませんでした (0TY6)"
