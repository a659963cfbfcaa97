"""にじ野望's picture: the prefectures as tiles, each coloured by the country that holds it, with the
lord's name and the troops standing there."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg
from engine.rules import REGISTRY
from engine.rules.nijiyabou.names import TROOPS


def test_each_area_shows_its_owner_and_troops_in_the_owner_s_colour() -> None:
    ruleset = REGISTRY.get("nijiyabou")
    state = ruleset.initial_state(ruleset.read_scenario(ruleset.template()))
    taken, lost = list(state.areas)[:2]
    state.areas[lost].owner = state.areas[taken].owner  # one country now holds two areas
    text = ruleset.picture(state)
    tiles = {
        g.get("data-name"): g
        for g in ET.fromstring(text).iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "tile"
    }
    assert set(tiles) == set(state.areas)
    for name, area in state.areas.items():
        assert tiles[name].get("data-owner") == state.country_label(area.owner)
        assert tiles[name].get("data-troops") == str(sum(area.troops[t] for t in TROOPS))
    fill = {name: g.find(f"{{{svg.SVG_NS}}}rect").get("fill") for name, g in tiles.items()}
    assert fill[taken] == fill[lost] and len(set(fill.values())) > 1
