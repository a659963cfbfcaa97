"""The dice thread reads no scenario: a GM who writes one (say the sides of a default die) is told the
keys change nothing, rather than left to think they do; without one (`threadgm new dice`) it starts."""

from __future__ import annotations

import pytest

from engine.rules.dice import RULESET
from engine.ruleset import RulesetError


def test_the_dice_thread_starts_without_a_scenario() -> None:
    assert RULESET.template() is None
    assert RULESET.initial_state({}) == {}
    assert RULESET.initial_state(RULESET.read_scenario("# ダイスだけのスレッド\n")) == {}


def test_a_key_in_its_scenario_is_refused_by_name() -> None:
    with pytest.raises(RulesetError) as refused:
        RULESET.initial_state(RULESET.read_scenario("sides = 6\n[table]\nname = 'x'\n"))
    assert str(refused.value).splitlines() == [
        "シナリオに知らない項目「sides」があります（書ける項目はありません）",
        "シナリオに知らない項目「table」があります（書ける項目はありません）",
    ]
