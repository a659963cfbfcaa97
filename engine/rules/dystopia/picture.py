"""DysTopiA as a picture: the party sheet — each character's HP and MP as bars, BP, its row and its
marks (戦闘不能, 死亡, effects), and the scene. Drawn from the sheet's public values only: handouts
(their backs above all) are never read here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import svg
from engine.rules.dystopia.scenes import scene_title
from engine.rules.dystopia.state import DOWN, State

ROW = 46
BAR = 160


def picture(state: State, result: Mapping[str, Any] | None = None) -> str:
    sheets = list(state.sheets.values())
    title = f"{state.options.title} {scene_title(state)}"
    root = svg.document(620, 40 + ROW * max(1, len(sheets)) + 8, title)
    svg.add(root, "text", title, x=8, y=22, font_size=14, font_weight="bold")
    for index, sheet in enumerate(sheets):
        y = 36 + ROW * index
        marks = ["死亡" if sheet.dead else DOWN if sheet.down else "", *sheet.effects, sheet.row]
        card = svg.group(
            root, {"character": sheet.name, "hp": sheet.hp, "mp": sheet.mp}, **{"class": "sheet"}
        )
        svg.add(
            card,
            "rect",
            x=4,
            y=y,
            width=612,
            height=ROW - 4,
            rx=4,
            fill="#eee" if sheet.dead or sheet.down else "#fff",
            stroke="#999",
        )
        svg.add(card, "text", sheet.name + ("（NPC）" if sheet.npc else ""), x=12, y=y + 18, font_size=13)
        svg.add(card, "text", "、".join(m for m in marks if m) or "-", x=12, y=y + 35, font_size=10)
        for offset, (label, value, most, colour) in enumerate(
            (("HP", sheet.hp, sheet.hp_max, "#d62728"), ("MP", sheet.mp, sheet.mp_max, "#1f77b4"))
        ):
            bx, by = 220, y + 8 + 16 * offset
            share = max(0.0, min(1.0, value / most)) if most > 0 else 0.0
            svg.add(card, "text", label, x=bx - 24, y=by + 10, font_size=11)
            svg.add(card, "rect", x=bx, y=by, width=BAR, height=11, fill="#ddd")
            svg.add(card, "rect", x=bx, y=by, width=round(BAR * share, 1), height=11, fill=colour)
            svg.add(card, "text", f"{value}/{most}", x=bx + BAR + 6, y=by + 10, font_size=11)
        svg.add(card, "text", f"BP {sheet.bp}/{sheet.emotion_total}", x=530, y=y + 26, font_size=12)
    return svg.to_string(root)
