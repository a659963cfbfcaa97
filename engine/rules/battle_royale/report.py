"""Reports of the 都道府県バトロワ in the thread's own style: each die as the seed's template (【name】,
基準『』, the note line, `diceNdM=` with its faces, the table lines, → the outcome), the 生き残り表, the
戦況まとめ, the winner. Markup-neutral (`engine.report`); GM-only lines go to `meta["secret"]`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.report import Block, Report, Section, heading, line, report, section, strong, table
from engine.rules.battle_royale.events import (
    BattleStart,
    Died,
    DieRequest,
    Entrants,
    Event,
    GameOver,
    Renumbered,
    Revealed,
    Rolled,
    Said,
    Secret,
    Summary,
    SurvivorTable,
)

_MAX_FACE_LINES = 12
_ENDING_TITLES = {
    "winner": "優勝",
    "mastermind": "黒幕の勝利",
    "reconciled": "和解エンド",
    "fallen": "共倒れ",
}


def render(events: Iterable[Event]) -> Report:
    """The public report of one step; GM-only content rides along as `meta["secret"]` (a Report)."""
    public: list[Block] = []
    secret: list[Block] = []
    for event in events:
        if isinstance(event, Secret):
            secret.append(line("（GM）", event.text))
        elif isinstance(event, Rolled) and event.request.secret:
            secret.append(_rolled(event))
        else:
            public.extend(_blocks(event))
    meta: dict[str, object] = {}
    if secret:
        meta["secret"] = report(*secret, kind="secret")
    return report(*public, **meta)


def request_report(request: DieRequest) -> Report:
    """The template a player copies to roll the next die (assisted play), with why this table."""
    blocks: list[Block] = [*_template_head(request), line(request.command), *_face_lines(request)]
    return report(section(*blocks), line("理由：", request.reason), kind="prompt")


def _template_head(request: DieRequest) -> list[Block]:
    blocks: list[Block] = [heading(request.name)]
    if request.base:
        blocks.append(line(f"基準『{request.base}』"))
    if request.subject:
        blocks.append(line(request.subject))
    if request.note:
        blocks.extend(line(text) for text in request.note.split("\n"))  # a seed template may have two
    return blocks


def _face_lines(request: DieRequest) -> list[Block]:
    table_ = request.table
    if table_.key in ("select", "select_opponent"):
        return []  # the numbered table is the 生き残り表 already posted
    if table_.key.endswith("_count") and table_.sides > _MAX_FACE_LINES:
        first, last = table_.faces[0], table_.faces[-1]
        return [line(f"1～{table_.sides}.{first.label}～{last.label}（出目の順）")]
    return [line(face.text) for face in table_.faces]


def _rolled(event: Rolled) -> Section:
    request = event.request
    blocks = _template_head(request)
    if event.automatic:
        blocks.append(line("→ ", strong(event.result), "（ほかの結果がないためダイスなしで確定）"))
        return section(*blocks)
    total = sum(event.faces)
    blocks.append(line(request.command, " ".join(str(f) for f in event.faces), f" ({total})"))
    blocks.extend(_face_lines(request))
    blocks.append(line("→ ", strong(event.result)))
    return section(*blocks)


def _side(label: str, members: tuple[str, ...]) -> str:
    if len(members) <= 1:
        return f"『{label}』"
    return f"『{label}』（" + "".join(f"『{m}』" for m in members) + "）"


def _battle_start(event: BattleStart) -> list[Block]:
    title = {
        "battle": f"第{event.number}戦",
        "infight": f"第{event.number}戦（仲間割れ）",
        "final": "黒幕決戦",
    }[event.kind]
    if event.kind == "final":  # its number, which the heading has not: its dice roll on br/NUMBER/…
        return [
            heading(title),
            line(f"黒幕『{event.base}』 vs {event.opponent}"),
            line(f"（第{event.number}戦）"),
        ]
    return [
        heading(title),
        line(_side(event.base, event.base_side), " vs ", _side(event.opponent, event.opponent_side)),
    ]


def _died(event: Died) -> list[Block]:
    if event.again:
        return [line(f"『{event.label}』は倒れた……はずが、その姿はどこにもない")]
    return [line(strong(f"『{event.label}』脱落"), f"（{event.cause}）" if event.cause != "final" else "")]


def _renumbered(event: Renumbered) -> list[Block]:
    return [
        section(
            heading("都道府県表（作り直し）"),
            line(event.why),
            table(((str(n), label) for n, label in event.rows), ("番号", "都道府県")),
            line(f"次からは dice2d{len(event.rows)}= で選出"),
        )
    ]


def _revealed(event: Revealed) -> list[Block]:
    blocks: list[Block] = [
        heading("黒幕判明"),
        line(f"{event.why}――"),
        line(strong(f"黒幕の正体は『{event.mastermind}』！")),
    ]
    if event.collaborators:
        blocks.append(line("協力者：", "".join(f"『{c}』" for c in event.collaborators)))
    return [section(*blocks)]


def _survivor_table(event: SurvivorTable) -> list[Block]:
    blocks: list[Block] = [heading("生き残り表")]
    if event.fallen:
        blocks.append(line("今回の脱落：", "".join(f"『{f}』" for f in event.fallen)))
    if event.revived:
        blocks.append(line("新規参戦：", "".join(f"『{r}』" for r in event.revived)))
    if event.header[1] == "チーム":
        blocks.append(table(event.rows, event.header))  # a few teams: the table reads best
    else:
        blocks.extend(line(text) for text in compact_rows(event.rows))
    blocks.extend(line(g) for g in event.groups)
    blocks.append(line(f"残り{event.remaining}"))
    return [section(*blocks)]


_PER_LINE = 8  # entries on a line of the compact table (about 60 characters)


def compact_rows(rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """The survivors a few to a line, `番号名前`, a group member marked `[k]`; by region when every
    survivor has one and there are many, so that 47 names fit in a handful of lines."""
    entries = [
        (f"{n}{name}" + (f"[{group[2:]}]" if group != "単独" else ""), region)
        for n, name, group, region in rows
    ]
    by_region = len(entries) > 2 * _PER_LINE and all(region for _, region in entries)
    if not by_region:
        return [" ".join(e for e, _ in entries[i : i + _PER_LINE]) for i in range(0, len(entries), _PER_LINE)]
    lines: list[str] = []
    for region in dict.fromkeys(region for _, region in entries):
        mine = [e for e, r in entries if r == region]
        # Lines of even length, one more than _PER_LINE allowed: 中部's 9 on one line, not 8 and a
        # lone 「中部：23愛知」 that reads as a second 中部.
        count = -(-len(mine) // (_PER_LINE + 1))
        size = -(-len(mine) // count)
        lines += [f"{region}：" + " ".join(mine[i : i + size]) for i in range(0, len(mine), size)]
    return lines


def _summary(event: Summary) -> list[Block]:
    blocks: list[Block] = [
        heading(f"戦況まとめ（第{event.battles}戦終了時点）"),
        line(f"残り{event.remaining}"),
    ]
    blocks.extend(line(g) for g in event.groups)
    if not event.groups:
        blocks.append(line("団体：なし"))
    if event.fallen:
        blocks.append(line("脱落順：", "→".join(f"『{f}』" for f in event.fallen)))
    if event.counts:
        blocks.append(line("これまで：", "、".join(f"{label}{n}回" for label, n in event.counts)))
    return [section(*blocks)]


def _entrants(event: Entrants) -> list[Block]:
    blocks: list[Block] = [
        heading(event.title),
        *(line(note) for note in event.notes),
        table(event.rows, event.header),
    ]
    blocks.append(line(f"参加{len(event.rows)}" + ("チーム" if event.header[1] == "チーム" else "")))
    return [section(*blocks)]


def _game_over(event: GameOver) -> list[Block]:
    names = "".join(f"『{w}』" for w in event.winners)
    if event.kind == "winner":
        who = f"{event.team}（{names}）" if event.team else names
        text = f"優勝は{who}！（全{event.battles}戦）"
    elif event.kind == "mastermind":
        text = f"黒幕陣営{names}の勝利……（全{event.battles}戦）"
    elif event.kind == "fallen":
        left = f"（生き残りは協力者{names}のみ）" if names else ""
        text = f"黒幕と残った都道府県は共倒れ……勝者なし{left}（全{event.battles}戦）"
    else:
        text = f"黒幕と残った都道府県{names}は和解した（全{event.battles}戦）"
    return [section(heading(_ENDING_TITLES[event.kind]), line(strong(text)))]


# Looked up by exact class, which is right only while no event class is subclassed.
_RENDERERS: dict[type, Callable[[Any], list[Block]]] = {
    Rolled: lambda event: [_rolled(event)],
    BattleStart: _battle_start,
    Died: _died,
    Said: lambda event: [line(event.text)],
    Renumbered: _renumbered,
    Revealed: _revealed,
    SurvivorTable: _survivor_table,
    Summary: _summary,
    Entrants: _entrants,
    GameOver: _game_over,
}


def _blocks(event: Event) -> list[Block]:
    renderer = _RENDERERS.get(type(event))
    return renderer(event) if renderer is not None else []
