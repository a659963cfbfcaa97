"""The battle royale as a picture: Japan's prefectures as tiles — alive, fallen, in which group or
team — and the 基準 and the opponent of the last battle. Only what the thread may see: a hidden
mastermind is fallen here as in the posts, and is never marked as the mastermind before the reveal.
"""

from __future__ import annotations

from engine import svg
from engine.rules.battle_royale.state import (
    RESERVE,
    State,
    is_hidden_mastermind,
    is_publicly_alive,
    shown,
    team_name,
)

ALIVE_FILL, FALLEN_FILL, RESERVE_FILL, BASE_STROKE = "#bfe3b4", "#c8c8c8", "#f3e6a6", "#d62728"
GROUP_FILLS = ("#9ecae1", "#fdae6b", "#c5b0d5", "#f7b6d2", "#dbdb8d", "#9edae5", "#ff9896", "#c49c94")


def picture(state: State, result: object = None) -> str:
    """The map as SVG text (every name escaped by the SVG builder)."""
    groups = sorted(
        {gid for name, gid in state.group_of.items() if is_publicly_alive(state, name)}, key=_order
    )
    fill_of = {gid: GROUP_FILLS[index % len(GROUP_FILLS)] for index, gid in enumerate(groups)}
    battle = state.battle
    sides = {}
    if battle is not None:
        sides = {name: "base" for name in battle.base_side} | {
            name: "opponent" for name in battle.opponent_side
        }
    tiles = []
    mm = state.mastermind
    for prefecture in state.roster:
        name = prefecture.name
        lines: list[str] = []
        data: dict[str, object] = {}
        if is_publicly_alive(state, name):
            status, fill = "alive", ALIVE_FILL
            gid = state.group_of.get(name)
            if gid is not None:
                fill = fill_of[gid]
                lines.append(f"団体{gid}")
                data["group"] = gid
            team = state.team_of.get(name)
            if team is not None:
                lines.append(team_name(state, team))
                data["team"] = team
            if mm is not None and mm.revealed and mm.name == name:
                lines.append("黒幕")
        elif state.status.get(name) == RESERVE:
            status, fill = "reserve", RESERVE_FILL
            lines.append("控え")
        else:
            status, fill = "fallen", FALLEN_FILL
            lines.append("脱落")
        side = sides.get(name)
        if side is not None and not is_hidden_mastermind(state, name):
            lines.append("基準" if side == "base" else "相手")
            data["battle"] = side
        tiles.append((name, lines, fill, {"status": status, **data}))
    alive = sum(1 for name, _, _, data in tiles if data["status"] == "alive")
    notes = [f"第{state.battles}戦まで　生存{alive}／{len(tiles)}"]
    if battle is not None:
        base = "・".join(shown(state, name) for name in battle.base_side) or shown(state, battle.base)
        other = "・".join(shown(state, name) for name in battle.opponent_side)
        notes.append(f"第{battle.number}戦　基準『{base}』　相手『{other}』")
    if state.ending is not None and state.ending.winners:
        notes.append("優勝：" + "・".join(shown(state, name) for name in state.ending.winners))
    legend = [(ALIVE_FILL, "生存"), (FALLEN_FILL, "脱落")] + [(fill_of[g], f"団体{g}") for g in groups]
    return svg.tile_map(f"{state.options.title} 第{state.battles}戦まで", tiles, legend, notes)


def _order(gid: str) -> tuple[int, str]:
    return (int(gid), gid) if gid.isdigit() else (10**9, gid)
