from __future__ import annotations


def test_largest_and_total_without_target(run) -> None:
    assert run("3U6[6]", (6, 3), (6, 6), (6, 2), (6, 4)).text == "(3U6[6]) ＞ 3,8[6,2],4 ＞ 8/15(最大/合計)"
    assert run("1U6[2]-1", (6, 1)).text == "(1U6[2]-1) ＞ 1-1 ＞ 0/0(最大/合計)"


def test_successes_with_modifier_and_target(run) -> None:
    assert run("2U6+1>=5@6", (6, 4), (6, 6), (6, 1)).text == "(2U6[6]+1>=5) ＞ 4,7[6,1]+1 ＞ 成功数2"


def test_a_threshold_is_required(run) -> None:
    assert run("3U6").text == "(3U6[0]) ＞ 無限ロールの条件がまちがっています"
    assert run("3U6[1]").text == "(3U6[1]) ＞ 無限ロールの条件がまちがっています"
