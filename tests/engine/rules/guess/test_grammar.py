"""数当て's grammar reads its numbers with the one reader: other scripts' digits and huge numbers
are refused with the reason (they raised ValueError in int() and stopped the thread)."""

from __future__ import annotations

import pytest

from engine.rules.guess import RULESET
from engine.ruleset import OrderText, Rejection


@pytest.mark.parametrize("digit", ["፩", "᧚", "𐩀", "𐹠", "٣"])
def test_digits_of_other_scripts_are_refused_with_the_reason(digit: str) -> None:
    refused = RULESET.parse_line(f"＜予想＞{digit}")
    assert isinstance(refused, Rejection) and "数字（0～9）" in refused.reason


def test_a_huge_guess_is_refused() -> None:
    refused = RULESET.parse_line("＜予想＞" + "9" * 4400)
    assert isinstance(refused, Rejection) and "6桁まで" in refused.reason


def test_full_width_digits_are_a_guess() -> None:
    assert RULESET.parse_line("＜予想＞４２") == OrderText(42, "＜予想＞42")


def test_a_score_setting_that_is_no_number_says_so_in_japanese() -> None:
    state = RULESET.initial_state({"players": ["アリス"]})
    with pytest.raises(ValueError, match="点数「፩」は数字"):
        RULESET.set_value(state, "scores.アリス", "፩")
    assert RULESET.set_value(state, "scores.アリス", "-2").scores == {"アリス": -2}


@pytest.mark.parametrize("line", ["予想 42", "＜よそう＞42", "【予想】４２", "予想：42", "(予想)42"])
def test_a_guess_written_another_way_gets_the_form(line: str) -> None:
    refused = RULESET.parse_line(line)
    assert isinstance(refused, Rejection) and refused.reason == "読めませんでした。もしかして: ＜予想＞42"


@pytest.mark.parametrize("line", ["予想は42かな", "42", "次の予想どうする？", "＞＜予想＞42"])
def test_chat_about_guesses_is_chat(line: str) -> None:
    assert RULESET.parse_line(line) is None


@pytest.mark.parametrize("line", [">>12 ＜予想＞42", ">>12-14 ＜予想＞42", "＞＞１２，１５　＜予想＞４２"])
def test_an_anchor_may_come_before_the_guess(line: str) -> None:
    assert RULESET.parse_line(line) == OrderText(42, "＜予想＞42")
