"""The battle royale's settings read numbers with the one reader: other scripts' digits and huge
numbers are refused with the reason."""

from __future__ import annotations

import pytest

from engine.rules import battle_royale as br
from engine.rules.battle_royale.ruleset import AUTOMATIC
from tests.engine.rules.battle_royale.test_ruleset import scenario


@pytest.mark.parametrize(
    ("value", "reason"), [("፩", "数字（0～9）"), ("9" * 4400, "桁まで"), ("101", "1～100")]
)
def test_an_option_that_is_no_number_in_range_says_why(value: str, reason: str) -> None:
    state = AUTOMATIC.initial_state(scenario())
    with pytest.raises(br.BattleRoyaleError, match=reason):
        AUTOMATIC.set_value(state, "options.battles_per_period", value)
