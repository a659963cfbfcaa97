"""The naval game as a picture: the hex map in 箱庭's coordinates (pointy tops, even rows pushed half
a hex right, as `hexgrid` reads them), each island's home hex, the units where they stand (fighters at
their base), and the battles of the period that led to the state, from its structured result.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from engine import svg
from engine.rules.naval.results import LOSS, WIN
from engine.rules.naval.state import FIGHTER, NavalState

R = 18.0  # a hex's radius
W = math.sqrt(3) * R
OUTLINED = 4000  # larger maps draw only the hexes that hold something (a 1000×1000 map stays small)
FILLS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


def centre(x: int, y: int) -> tuple[float, float]:
    return R + W * (x + (0.5 if y % 2 == 0 else 0.0)) + 4, R + 1.5 * R * y + 4


def corners(x: int, y: int) -> list[tuple[float, float]]:
    cx, cy = centre(x, y)
    return [
        (cx + R * math.cos(math.radians(60 * i - 30)), cy + R * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def battles(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The period's fights: the orders that ended in a win or a loss."""
    orders = (result or {}).get("orders") or []
    return [o for o in orders if isinstance(o, Mapping) and o.get("result") in (WIN, LOSS)]


def picture(state: NavalState, result: Mapping[str, Any] | None = None) -> str:
    colour = {code: FILLS[index % len(FILLS)] for index, code in enumerate(state.islands)}
    width = max(W * (state.width + 0.5) + 8, 640.0)  # room for the legend under a small map
    fights = battles(result)
    notes = [piece for f in fights for piece in svg.wrap(f"戦闘: {f.get('line') or f.get('order')}", width)]
    height = 1.5 * R * (state.height - 1) + 2 * R + 8
    root = svg.document(width, height + 20 * (len(notes) + 1), f"海戦 ピリオド{state.period}")
    sea = svg.group(root, None, **{"class": "sea"})
    if state.width * state.height <= OUTLINED:
        for y in range(state.height):
            for x in range(state.width):
                svg.add(sea, "polygon", points=svg.polygon(corners(x, y)), fill="#e8f1fa", stroke="#b8cde0")
    for code, island in state.islands.items():
        x, y = island.home
        mark = svg.group(root, {"island": code, "hex": f"{x},{y}"}, **{"class": "island"})
        svg.add(
            mark,
            "polygon",
            points=svg.polygon(corners(x, y)),
            fill="#d9c89e",
            stroke=colour[code],
            stroke_width=3,
        )
        cx, cy = centre(x, y)
        svg.add(mark, "text", code, x=cx, y=cy - 4, text_anchor="middle", font_size=9, font_weight="bold")
    _units(root, state, colour)
    for fight in fights:
        _battle(root, state, fight)
    y = height + 16
    legend = svg.add(root, "text", x=4, y=y, font_size=12)
    for code in state.islands:
        svg.add(legend, "tspan", f"■{code}島　", fill=colour[code])
    svg.add(legend, "tspan", "●艦船 ■戦闘機 赤丸＝このピリオドの戦闘")
    for note in notes:
        y += 20
        svg.add(root, "text", note, x=4, y=y, font_size=12, **{"class": "note"})
    return svg.to_string(root)


def _units(root: ET.Element, state: NavalState, colour: dict[str, str]) -> None:
    """Each hex's units as one stack (ships round, fighters square), in the islands' colours."""
    at: dict[tuple[int, int], list[str]] = {}
    for unit in state.units.values():
        where = state.hex_of(unit)
        if where is not None:
            at.setdefault(where, []).append(unit.id)
    for (x, y), ids in sorted(at.items()):
        cx, cy = centre(x, y)
        stack = svg.group(root, {"hex": f"{x},{y}", "units": " ".join(ids)}, **{"class": "units"})
        for index, unit_id in enumerate(ids):
            unit = state.units[unit_id]
            fill = colour.get(unit.island, "#333")
            ux, uy = cx + (index % 3 - 1) * 9, cy + 4 + (index // 3) * 9
            if unit.category == FIGHTER:
                svg.add(
                    stack, "rect", x=ux - 3.5, y=uy - 3.5, width=7, height=7, fill=fill, data_unit=unit_id
                )
            else:
                svg.add(stack, "circle", cx=ux, cy=uy, r=4, fill=fill, data_unit=unit_id)
        svg.add(stack, "title", "\n".join(ids))


def _battle(root: ET.Element, state: NavalState, fight: Mapping[str, Any]) -> None:
    """A red ring where a fight of the period took place: the hex of a side still on the map."""
    for unit_id in (fight.get("winner"), fight.get("loser")):
        unit = state.units.get(str(unit_id)) if unit_id else None
        where = state.hex_of(unit) if unit is not None else None
        if where is not None:
            cx, cy = centre(*where)
            ring = {"class": "battle", "data-hex": f"{where[0]},{where[1]}"}
            svg.add(
                root, "circle", cx=cx, cy=cy, r=R - 2, fill="none", stroke="#d62728", stroke_width=3, **ring
            )
            return
