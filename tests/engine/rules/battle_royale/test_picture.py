"""The battle royale's picture: Japan's tiles say who is alive, fallen and grouped, and who stands in
the last battle — and a hidden mastermind is fallen on the map as in the thread."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg
from engine.rules import REGISTRY
from engine.rules.battle_royale.state import ALIVE, UNKNOWN, Battle, Mastermind
from tests.engine.rules.battle_royale.helpers import prepared

NS = {"s": svg.SVG_NS}
EAST = ("北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城")


def tiles(text: str) -> dict[str, dict[str, str]]:
    root = ET.fromstring(text)
    return {
        g.get("data-name"): {
            **{k[5:]: v for k, v in g.attrib.items() if k.startswith("data-")},
            "text": " ".join(t.text or "" for t in g.iter(f"{{{svg.SVG_NS}}}text")),
        }
        for g in root.iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "tile"
    }


def test_the_map_shows_each_prefecture_where_it_lies_with_its_fate_and_group() -> None:
    state = prepared(EAST, dead=["岩手"], groups=[["青森", "宮城"]])
    state.battles = 3
    state.battle = Battle(4, "battle", "青森", "秋田", ["青森", "宮城"], ["秋田"])
    drawn = REGISTRY.get("battle-royale").picture(state)
    shown = tiles(drawn)
    assert set(shown) == set(EAST)
    assert shown["岩手"]["status"] == "fallen" and "脱落" in shown["岩手"]["text"]
    assert shown["青森"]["group"] == shown["宮城"]["group"] == "1" and "団体1" in shown["青森"]["text"]
    assert shown["青森"]["battle"] == "base" and shown["宮城"]["battle"] == "base"
    assert shown["秋田"]["battle"] == "opponent" and "battle" not in shown["北海道"]
    assert all(shown[name]["status"] == "alive" for name in EAST if name != "岩手")
    assert "第4戦　基準『青森・宮城』　相手『秋田』" in drawn and "生存7／8" in drawn
    # each tile is where the prefecture lies: 北海道 above 青森, 岩手 east of 秋田
    root = ET.fromstring(drawn)
    place = {
        g.get("data-name"): (float(g.find("s:rect", NS).get("x")), float(g.find("s:rect", NS).get("y")))
        for g in root.iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "tile"
    }
    assert place["北海道"][0] == place["青森"][0] and place["北海道"][1] < place["青森"][1]
    assert place["秋田"][1] == place["岩手"][1] and place["秋田"][0] < place["岩手"][0]


def test_a_hidden_mastermind_is_fallen_and_unnamed_until_revealed() -> None:
    state = prepared(EAST)
    state.mastermind = Mastermind(name="山形", hidden=True)
    assert state.status["山形"] == ALIVE  # the truth: still in play
    state.battle = Battle(2, "battle", "山形", "福島", ["山形"], ["福島"])
    ruleset = REGISTRY.get("battle-royale")
    drawn = ruleset.picture(state)
    assert tiles(drawn)["山形"]["status"] == "fallen" and "battle" not in tiles(drawn)["山形"]
    assert "黒幕" not in drawn and f"基準『{UNKNOWN}』" in drawn
    state.mastermind = Mastermind(name="山形", revealed=True)
    assert "黒幕" in tiles(ruleset.picture(state))["山形"]["text"]


def test_a_roster_of_other_names_is_drawn_whole_below_the_map() -> None:
    state = prepared(["東京都", "ニューヨーク", "<b>x</b>"])
    shown = tiles(REGISTRY.get("battle-royale-assist").picture(state))
    assert set(shown) == {"東京都", "ニューヨーク", "<b>x</b>"}
