"""DH as a picture: the board of rows A–E × columns 1–7 (or the scenario's size) with its walls, the
characters on their squares coloured by side, the acting side and each side's DP — the MAP and the
ステータス of 状態, drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import svg
from engine.rules.dh.report import field_mark
from engine.rules.dh.state import DHState, phase_label

CELL = 72
SIDE_FILLS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")


def picture(state: DHState, result: Mapping[str, Any] | None = None) -> str:
    fill = {side.name: SIDE_FILLS[index % len(SIDE_FILLS)] for index, side in enumerate(state.sides)}
    rows, columns = len(state.rows), state.columns
    top, left = 24, 24
    notes = [
        f"フェイズ{state.phase} {phase_label(state.phase)}（{state.acting.name}）",
        "DP: " + " ／ ".join(f"{side.name} {state.dp.get(side.name, 0)}" for side in state.sides),
    ]
    notes += [
        f"{field_mark(index)} フィールド「{placed.power}」（{placed.owner}）: {'・'.join(placed.squares)}"
        for index, placed in enumerate(state.fields)
    ]
    if state.winner is not None:
        notes.append(f"勝敗: {state.winner}" + (f"（{state.reason}）" if state.reason else ""))
    height = top + rows * CELL + 12 + 20 * len(notes)
    root = svg.document(left + columns * CELL + 8, height, "DH " + notes[0])
    for column in range(columns):
        svg.add(
            root,
            "text",
            str(column + 1),
            x=left + column * CELL + CELL / 2,
            y=16,
            text_anchor="middle",
            font_size=12,
        )
    standing: dict[str, list] = {}
    for character in state.on_map():
        standing.setdefault(character.square, []).append(character)
    walls = set(state.walls)
    for row, letter in enumerate(state.rows):
        svg.add(
            root, "text", letter, x=8, y=top + row * CELL + CELL / 2 + 4, text_anchor="middle", font_size=12
        )
        for column in range(columns):
            square = f"{letter}{column + 1}"
            x, y = left + column * CELL, top + row * CELL
            cell = svg.group(root, {"square": square, "wall": int(square in walls)}, **{"class": "square"})
            svg.add(
                cell,
                "rect",
                x=x,
                y=y,
                width=CELL,
                height=CELL,
                fill="#555" if square in walls else "#fafafa",
                stroke="#999",
            )
            for index, placed in enumerate(state.fields):
                if square in placed.squares:
                    owner = state.characters.get(placed.owner)
                    area = svg.group(
                        cell, {"field": placed.power, "owner": placed.owner}, **{"class": "field"}
                    )
                    colour = fill.get(owner.side, "#333") if owner else "#333"
                    svg.add(
                        area,
                        "rect",
                        x=x + 1,
                        y=y + 1,
                        width=CELL - 2,
                        height=CELL - 2,
                        fill=colour,
                        fill_opacity=0.12,
                        stroke=colour,
                        stroke_dasharray="4 3",
                    )
                    svg.add(
                        area,
                        "text",
                        field_mark(index),
                        x=x + CELL - 14 - 12 * (index % 4),
                        y=y + CELL - 5,
                        font_size=11,
                        fill=colour,
                    )
            for index, character in enumerate(standing.get(square, [])[:4]):
                mark = svg.group(
                    cell, {"character": character.name, "side": character.side}, **{"class": "piece"}
                )
                svg.add(
                    mark,
                    "rect",
                    x=x + 3,
                    y=y + 3 + 17 * index,
                    width=CELL - 6,
                    height=15,
                    rx=3,
                    fill=fill.get(character.side, "#333"),
                )
                label = f"{character.name[:5]} {character.hp}"
                svg.add(mark, "text", label, x=x + 6, y=y + 15 + 17 * index, font_size=10, fill="#fff")
            more = len(standing.get(square, [])) - 4
            if more > 0:
                svg.add(cell, "text", f"他{more}人", x=x + 6, y=y + CELL - 4, font_size=10)
    y = top + rows * CELL + 20
    for note in notes:
        svg.add(root, "text", note, x=4, y=y, font_size=12, **{"class": "note"})
        y += 20
    return svg.to_string(root)
