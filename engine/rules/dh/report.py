"""What a resolved DH phase looks like to players (a markup-neutral Report) and to programs (its JSON
result): each action on its lines (the move and where ZoC stopped it, each roll as face/target, damage,
states gained), the board as a text map (rows × columns, walls ■, empty □, who is where), the table of
every character's 体力, 精神 and states, DP per side, the winner, and 【判定】: every die rolled with its
stream, which `verify.py` reads back."""

from __future__ import annotations

from typing import Any

from engine.report import Block, Report, heading, line, report, section, strong, table
from engine.rules.dh.context import Context
from engine.rules.dh.resolution import Phase
from engine.rules.dh.state import STYLES, Character, DHState, phase_label
from engine.rules.dh.stats import AWAY, dying, stat, status_text

CHECKS_HEADING = "判定"
WALL, EMPTY, CORNER = "■", "□", "＼"


FIELD_MARKS = "①②③④⑤⑥⑦⑧⑨⑩"


def field_mark(index: int) -> str:
    """The mark of the index-th field on the map (①, ②…), in the order the fields were placed."""
    return FIELD_MARKS[index % len(FIELD_MARKS)]


def board_map(state: DHState) -> Block:
    """The map: one row per letter, one column per number; a cell lists who stands there and the mark
    of every field over it (①…, named under the map)."""
    grid = state.grid
    where: dict[str, list[str]] = {}
    for character in state.on_map():
        assert character.square is not None
        where.setdefault(character.square, []).append(character.name)
    over: dict[str, str] = {}
    for index, placed in enumerate(state.fields):
        for square in placed.squares:
            over[square] = over.get(square, "") + field_mark(index)
    rows = []
    for row in grid.rows:
        cells = [row]
        for column in range(1, grid.columns + 1):
            square = f"{row}{column}"
            if square in grid.walls:
                cells.append(WALL)
                continue
            cells.append(("、".join(where.get(square, [])) + over.get(square, "")) or EMPTY)
        rows.append(cells)
    return table(rows, header=[CORNER, *(str(c) for c in range(1, grid.columns + 1))])


def field_lines(state: DHState) -> list[Block]:
    """What each mark on the map is: the field, who placed it, its squares and until when it stays."""
    found: list[Block] = []
    for index, placed in enumerate(state.fields):
        owner = state.characters.get(placed.owner)
        side = f"・{owner.side}" if owner else ""
        until = f"{phase_label(placed.until)}の開始まで" if placed.until is not None else "永続"
        mark = field_mark(index)
        found.append(
            line(
                f"{mark} フィールド「{placed.power}」（{placed.owner}{side}）: {'・'.join(placed.squares)}（{until}）"
            )
        )
    return found


def _place(character: Character) -> str:
    if not character.alive:
        return "死亡"
    if character.square is not None:
        return character.square
    if any(s.kind == AWAY for s in character.statuses):
        return "離脱"
    return "控え"


def _states(state: DHState, character: Character) -> str:
    if not character.alive:
        return "-"
    texts = [status_text(s) for s in character.statuses]
    if dying(character, state.options):
        texts.append("瀕死")
    texts += [f"能力休み({name})" for name, until in character.rested.items() if until > state.phase]
    return "、".join(texts) or "-"


def status_table(state: DHState) -> Block:
    rows = [
        (
            c.name,
            c.side,
            _place(c),
            str(stat(c, "attack")),
            str(stat(c, "defense")),
            str(c.hp),
            str(stat(c, "mind")),
            _states(state, c),
        )
        for c in state.characters.values()
    ]
    # 攻撃・防御・精神 as the rules use them now: a state's 防御力+2 is in the number, and named in 状態.
    return table(rows, header=("名前", "陣営", "位置", "攻撃", "防御", "体力", "精神", "状態"))


def dp_line(state: DHState) -> Block:
    return line("DP: " + " ／ ".join(f"{side.name} {state.dp.get(side.name, 0)}" for side in state.sides))


def board_blocks(state: DHState) -> list[Block]:
    """The board, the table and DP: what every report ends with and what 状態 posts."""
    blocks: list[Block] = [
        section(heading("MAP"), board_map(state), *field_lines(state)),
        section(heading("ステータス"), status_table(state)),
        dp_line(state),
    ]
    if state.winner is not None:
        verdict = "引き分け" if state.winner == "引き分け" else f"{state.winner}の勝利"
        blocks.append(line("勝敗: ", strong(verdict), f"（{state.reason}）"))
    else:  # its deadline is the period's, which the referee states beside this
        blocks.append(line(f"次: フェイズ{state.phase} {phase_label(state.phase)}（{state.acting.name}）"))
    return blocks


def opening_blocks(state: DHState) -> list[Block]:
    """What the opening post shows of the start: the map (the starters in place) and the table."""
    return [
        section(heading("MAP"), board_map(state), *field_lines(state)),
        section(heading("ステータス"), status_table(state)),
    ]


def check_lines(ctx: Context) -> list[Block]:
    """【判定】: every die rolled, `dh/<phase>/<label>/<n> d100=42 目標65 成功` (picks: `d5=3`)."""
    lines: list[Block] = []
    for check in ctx.checks:
        if check.face is None:
            continue
        text = f"{check.purpose} d{check.sides}={check.face}"
        if check.sides == 100:
            text += f" 目標{check.target} {'成功' if check.ok else '失敗'}"
        lines.append(line(text))
    return lines


def result_data(before: DHState, after: DHState, phase: Phase, ctx: Context) -> dict[str, Any]:
    checks = {check.purpose: check.to_dict() for check in ctx.checks}
    return {
        "ruleset": "dh",
        "phase": phase.phase,
        "turn": (phase.phase + 1) // 2,
        "side": phase.side,
        "actions": phase.records,
        "checks": checks,
        "late_lost": phase.late_lost,
        "void": [{"line": text, "why": why} for text, why in phase.void],
        "deaths": list(ctx.died),
        "dp": dict(after.dp),
        "winner": after.winner,
        "reason": after.reason,
        "next_phase": after.phase if after.winner is None else None,
    }


def _lines(texts: list[str]) -> list[Block]:
    """An action's lines: its order, then what happened, each detail marked ・ (boards trim spaces)."""
    return [line("・" + text[1:] if text.startswith("　") else text) for text in texts]


def build_report(before: DHState, after: DHState, phase: Phase, ctx: Context) -> Report:
    blocks: list[Block] = [heading(f"DH フェイズ{phase.phase} {phase_label(phase.phase)}（{phase.side}）")]
    if phase.opening:
        blocks.append(section(heading("フェイズ開始"), *_lines(phase.opening)))
    if phase.void:
        blocks.append(section(heading("無効の行"), *(line(f"{text} → {why}") for text, why in phase.void)))
    blocks.append(heading("行動"))
    for _, texts in phase.actions:
        blocks.append(section(*_lines(texts)))
    if phase.closing:
        blocks.append(section(heading("次のフェイズ開始"), *_lines(phase.closing)))
    blocks += board_blocks(after)
    rolled = check_lines(ctx)
    if rolled:
        blocks.append(section(heading(CHECKS_HEADING), *rolled))
    return report(*blocks, kind="resolution", result=result_data(before, after, phase, ctx))


def power_table(state: DHState) -> Block:
    """The sheet's other columns: 性別, FS and each power with its style, 発動率 and 成功率."""
    rows = []
    for c in state.characters.values():
        for power in c.powers or [None]:
            if power is None:
                rows.append((c.name, c.gender or "-", str(c.fs), "-", "-", "-", "-"))
            else:
                rate = "精神" if power.mental else str(power.success)
                style = STYLES[power.style]
                rows.append(
                    (c.name, c.gender or "-", str(c.fs), power.name, style, str(power.activation), rate)
                )
    return table(rows, header=("名前", "性別", "FS", "能力名", "スタイル", "発動", "成功"))


def status_report(state: DHState) -> Report:
    """What 状態 posts: the board, the table, DP, and the characters' powers."""
    title = f"DH フェイズ{state.phase} {phase_label(state.phase)}（{state.acting.name}）"
    blocks = [heading(title), *board_blocks(state), section(heading("能力"), power_table(state))]
    return report(*blocks, kind="status")
