from __future__ import annotations


def test_counts_of_each_face(run) -> None:
    assert run("4TY6", (6, 3), (6, 5), (6, 3), (6, 1)).text == "(4TY6) ＞ 3,5,3,1 ＞ [1]×1, [3]×2, [5]×1"
    assert run("2TZ3", (3, 2), (3, 2)).text == "(2TZ3) ＞ 2,2 ＞ [1]×0, [2]×2, [3]×0"


def test_no_answer_without_dice_and_a_refusal_past_twenty_sides(run) -> None:
    assert run("0TY6") is None
    refused = run("S2TY21")
    assert refused.text == "(2TY21) ＞ 面数は1以上、20以下としてください"
    assert not refused.secret
