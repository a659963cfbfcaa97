"""The naval grammar and settings read numbers with the one reader: a coordinate or unit number of
thousands of digits, or another script's digits, is refused with the reason (int() raised on them)."""

from __future__ import annotations

import pytest

from engine.rules.naval.grammar import NavalOrderError, RandomsFileError, parse_order, parse_randoms_file
from engine.rules.naval.ruleset import RULESET
from engine.rules.naval.state import unit_key
from engine.ruleset import Order, OrderText
from tests.engine.rules.naval.test_ruleset import scenario

HUGE = "9" * 4400


def test_a_move_to_a_coordinate_of_4400_digits_is_refused_with_the_reason() -> None:
    refused = parse_order(f"＜移動＞ABC-DD-A-01、({HUGE},5)")
    assert isinstance(refused, NavalOrderError) and "座標" in refused.reason and "4桁まで" in refused.reason
    assert len(refused.reason) < 120


def test_a_move_to_digits_of_another_script_is_refused() -> None:
    assert isinstance(parse_order("＜移動＞ABC-DD-A-01、(٣,4)"), NavalOrderError)


def test_a_unit_number_of_4400_digits_is_a_unit_no_one_has() -> None:
    assert unit_key(f"ABC-DD-A-{HUGE}") == ("ABC-DD-A", HUGE)
    state = RULESET.initial_state(scenario())
    parsed = RULESET.parse_line(f"＜攻撃＞ABC-DD-A-{HUGE}、XYZ-DD-X-01")
    assert isinstance(parsed, OrderText)
    order = Order(2, 0, "アリス", "アリス", parsed.command, parsed.canonical)
    assert RULESET.check(state, order)  # refused at the receipt (no such unit), never raised


@pytest.mark.parametrize("value", [f"{HUGE},5", "፩,2"])
def test_a_hex_setting_that_is_no_number_says_why_in_japanese(value: str) -> None:
    state = RULESET.initial_state(scenario())
    with pytest.raises(ValueError, match="座標"):
        RULESET.set_value(state, "units.ABC-DD-A-01.hex", value)


def test_a_strength_setting_of_other_digits_is_refused() -> None:
    state = RULESET.initial_state(scenario())
    with pytest.raises(ValueError, match="戦力「፩」は数字"):
        RULESET.set_value(state, "units.ABC-DD-A-01.anti_ship", "፩")


def test_a_randoms_file_with_other_digits_says_which() -> None:
    with pytest.raises(RandomsFileError, match="1～100の整数ではありません"):
        parse_randoms_file("ABC: 5 ፩ 7")
