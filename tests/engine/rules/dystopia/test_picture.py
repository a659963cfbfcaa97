"""DysTopiA's picture is the party sheet: every character's HP, MP and BP as the state has them, and
never a back handout's text, key or commitment — nor its owner's secret."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg
from engine.rules import REGISTRY


def test_the_party_sheet_shows_every_character_and_no_handout() -> None:
    ruleset = REGISTRY.get("dystopia")
    state = ruleset.initial_state(ruleset.read_scenario(ruleset.template()))
    assert state.handouts, "the template has back handouts to keep secret"
    first = next(iter(state.sheets.values()))
    first.hp, first.down = 3, True
    text = ruleset.picture(state)
    cards = {
        g.get("data-character"): g
        for g in ET.fromstring(text).iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "sheet"
    }
    assert set(cards) == set(state.sheets)
    for name, sheet in state.sheets.items():
        assert (cards[name].get("data-hp"), cards[name].get("data-mp")) == (str(sheet.hp), str(sheet.mp))
    assert f"3/{first.hp_max}" in text and "戦闘不能" in text
    for handout in state.handouts.values():
        assert handout.text not in text
        assert not handout.key or handout.key not in text
        assert not handout.commitment or handout.commitment not in text
