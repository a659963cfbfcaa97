"""にじ野望 as a picture: the prefectures as tiles coloured by the country that holds them, each with
its lord's name and its troops (as the 勢力 table and the 地図 lines of 状態 show them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import svg
from engine.rules.nijiyabou.names import TROOPS
from engine.rules.nijiyabou.state import State

FILLS = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#bc80bd", "#ccebc5", "#ffed6f", "#d9d9d9", "#e5c494", "#a6d854", "#66c2a5", "#fc8d62",
)  # fmt: skip
EMPTY = "#f4f4f4"


def picture(state: State, result: Mapping[str, Any] | None = None) -> str:
    ranked = sorted(state.countries, key=lambda c: (-len(state.areas_of(c)), list(state.livers).index(c)))
    fill = {country: FILLS[index % len(FILLS)] for index, country in enumerate(ranked)}
    tiles = []
    for name, area in state.areas.items():
        troops = sum(area.troops.get(troop, 0) for troop in TROOPS)
        owner = state.country_label(area.owner)
        tiles.append(
            (
                name,
                [owner[:5], f"兵{troops}"],
                fill.get(area.owner, EMPTY) if area.owner else EMPTY,
                {"owner": owner, "troops": troops},
            )
        )
    legend = [(fill[c], state.country_label(c)) for c in ranked if state.areas_of(c)][:12]
    notes = []
    if state.winner is not None:
        notes.append(f"勝者：{state.country_label(state.winner)}")
    return svg.tile_map(f"にじ野望 {state.season_name()}", tiles, legend, notes)
