"""DH's picture is the board: rows × columns with the walls, each character on its square in its
side's colour, the phase and the DP."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg
from engine.rules import REGISTRY


def test_the_board_has_every_square_its_walls_and_the_pieces_where_they_stand() -> None:
    ruleset = REGISTRY.get("dh")
    state = ruleset.initial_state(ruleset.read_scenario(ruleset.template()))
    text = ruleset.picture(state)
    squares = {
        g.get("data-square"): g
        for g in ET.fromstring(text).iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "square"
    }
    assert len(squares) == len(state.rows) * state.columns == 35
    assert {s for s, g in squares.items() if g.get("data-wall") == "1"} == set(state.walls)
    pieces = {
        piece.get("data-character"): (square, piece.get("data-side"))
        for square, g in squares.items()
        for piece in g
        if piece.get("class") == "piece"
    }
    assert pieces == {c.name: (c.square, c.side) for c in state.on_map()}
    assert f"フェイズ{state.phase}" in text and "DP: " in text
