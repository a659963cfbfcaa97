"""The naval picture: every island's home hex, every unit on the hex it stands on (a fighter on its
base's), and a ring where the period's fights took place."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from engine import svg
from engine.rng import SeededSource
from engine.rules import REGISTRY
from engine.ruleset import result_data

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "naval"
G = f"{{{svg.SVG_NS}}}g"


def drawn(text: str, kind: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(text).iter(G) if g.get("class") == kind]


def test_units_stand_on_their_hexes_and_the_period_s_fight_is_ringed() -> None:
    ruleset = REGISTRY.get("naval")
    state = ruleset.initial_state(tomllib.loads((FIXTURES / "bot_game.toml").read_text("utf-8")))
    orders = ruleset.read_orders(state, "ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02")
    after, outcome = ruleset.resolve(state, orders, SeededSource(b"picture"))
    text = ruleset.picture(after, result_data(outcome))
    islands = {g.get("data-island"): g.get("data-hex") for g in drawn(text, "island")}
    assert islands == {code: f"{i.home[0]},{i.home[1]}" for code, i in after.islands.items()}
    stacks = {g.get("data-hex"): g.get("data-units").split() for g in drawn(text, "units")}
    expected: dict[str, list[str]] = {}
    for unit in after.units.values():
        where = after.hex_of(unit)
        expected.setdefault(f"{where[0]},{where[1]}", []).append(unit.id)
    assert stacks == expected
    assert "ABC-F-A-01" in stacks["7,4"]  # a fighter stands on its carrier's hex
    rings = [
        c.get("data-hex")
        for c in ET.fromstring(text).iter(f"{{{svg.SVG_NS}}}circle")
        if c.get("class") == "battle"
    ]
    survivor = "ABC-DD-A-01" if "ABC-DD-A-01" in after.units else "XYZ-DD-X-02"
    assert rings == ["3,3"] and survivor in stacks["3,3"]
    assert (
        "戦闘: 1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02"
        in ET.fromstring(text).find(f"{{{svg.SVG_NS}}}text[@class='note']").text
    )
    assert ruleset.picture(after) is not None and "battle" not in ruleset.picture(after)


def test_a_huge_map_draws_only_what_stands_on_it() -> None:
    ruleset = REGISTRY.get("naval")
    data = tomllib.loads((FIXTURES / "bot_game.toml").read_text("utf-8"))
    data["map"] = {"width": 1000, "height": 1000}
    text = ruleset.picture(ruleset.initial_state(data))
    assert len(text) < 20_000 and drawn(text, "units")


def test_a_result_it_cannot_read_draws_no_ring() -> None:
    ruleset = REGISTRY.get("naval")
    state = ruleset.initial_state(tomllib.loads((FIXTURES / "duel.toml").read_text("utf-8")))
    text = ruleset.picture(state, {"orders": [{"result": "勝利", "winner": "NOPE-DD-A-01"}, "junk", None]})
    assert "battle" not in text and drawn(text, "units")
