"""What a season of にじ野望 looks like: the results in resolution order (every battle short: who
fought, initiative, losses per round, the outcome), the dice (`【乱数】`, one line per purpose, read
back by `verify.py`), then what changed: the areas that changed hands and the rows of the standings
that changed (a season posts only what moved; the full standings and the text map are what 状態 and
the game page show). The full strike log and everything else is in `Report.meta["result"]`."""

from __future__ import annotations

from typing import Any

from engine.report import Block, Report, heading, line, report, section, strong, table
from engine.rules.nijiyabou.battle import ATTACK, Fight
from engine.rules.nijiyabou.names import REGIONS, TROOPS
from engine.rules.nijiyabou.resolution import PHASES, Season
from engine.rules.nijiyabou.state import State
from engine.rules.nijiyabou.war import Battle

ROLLS_HEADING = "乱数"
ROUNDS_PER_LINE = 3


def _army_text(state: State, fight: Fight, index: int) -> str:
    army = fight.armies[index]
    units = "・".join(f"{f.name}({f.troop}{f.start})" for f in army.fighters)
    return f"{army.side} {state.country_label(army.country)}: {units}"


def battle_lines(before: State, after: State, battle: Battle) -> list[Block]:
    fight = battle.fight
    assert fight is not None
    blocks: list[Block] = [
        heading(f"合戦 {battle.area}（{before.terrain(battle.area)}・{before.battle_stat(battle.area)}）")
    ]
    blocks += [line(_army_text(before, fight, i)) for i in range(len(fight.armies))]
    order = " → ".join(before.country_label(a.country) for a in fight.armies)
    rolls = "、".join(f"{before.country_label(c)} 1D100={face}" for c, face in fight.initiative_rolls)
    blocks.append(line(f"先攻順: {order}" + (f"（同値のため {rolls}）" if rolls else "")))
    rounds = [
        f"{number}回戦 "
        + " ".join(
            f"{before.country_label(a.country)}-{lost}" for a, lost in zip(fight.armies, losses, strict=True)
        )
        for number, losses in enumerate(fight.rounds, start=1)
    ]
    for start in range(0, len(rounds), ROUNDS_PER_LINE):  # a few rounds a line: a season fits fewer posts
        blocks.append(line("損害: " + "／".join(rounds[start : start + ROUNDS_PER_LINE])))
    blocks.append(line("→ ", strong(_outcome(before, after, battle))))
    for liver, country in battle.captured:
        blocks.append(line(f"{after.livers[liver].name}は{after.country_label(country)}の武将になりました"))
    blocks += [line(f"{after.livers[k].name}は処断されました") for k in battle.executed]
    return [section(*blocks)]


def _outcome(before: State, after: State, battle: Battle) -> str:
    fight = battle.fight
    assert fight is not None
    if battle.occupier is not None:
        return f"{battle.area}は{after.country_label(battle.occupier)}が占領"
    attackers_left = any(a.soldiers() > 0 for a in fight.armies if a.side == ATTACK)
    if attackers_left:
        return f"{battle.area}は持ちこたえ、攻め手は撤退"
    return f"{battle.area}は守りきりました（{before.country_label(battle.defender)}）"


STANDINGS_HEADER = ("国", "エリア", "国力", *TROOPS, "ライバー")


def _rows(state: State) -> dict[str, tuple[str, ...]]:
    """The standings' row of each country, largest first."""
    rows = {}
    for country in sorted(
        state.countries, key=lambda c: (-len(state.areas_of(c)), list(state.livers).index(c))
    ):
        areas = state.areas_of(country)
        troops = [sum(state.areas[a].troops[t] for a in areas) for t in TROOPS]
        livers = [liver.name for liver in state.livers.values() if liver.alive and liver.country == country]
        power = sum(state.areas[a].power for a in areas)
        rows[country] = (
            state.country_label(country),
            f"{len(areas)}",
            f"{power}",
            *map(str, troops),
            "・".join(livers),
        )
    return rows


def standings(state: State) -> list[Block]:
    return [heading("勢力"), table(list(_rows(state).values()), header=STANDINGS_HEADER)]


def changes(before: State, after: State) -> list[Block]:
    """What the season changed: areas that changed hands, and the standings' rows that changed."""
    moved = [
        f"{name}：{before.country_label(area.owner)}→{after.country_label(after.areas[name].owner)}"
        for name, area in before.areas.items()
        if area.owner != after.areas[name].owner
    ]
    old = _rows(before)
    rows = [row for country, row in _rows(after).items() if old.get(country) != row]
    blocks: list[Block] = []
    if moved:
        blocks.append(section(heading("支配の変化"), *(line(text) for text in moved)))
    if rows:
        blocks += [heading("勢力の変化（全体は 状態 で）"), table(rows, header=STANDINGS_HEADER)]
    else:
        blocks.append(line("勢力に変化はありません（全体は 状態 で）"))
    return blocks


def text_map(state: State) -> list[Block]:
    blocks: list[Block] = [heading("地図")]
    for region, names in REGIONS:
        cells = [f"{name}={state.country_label(state.areas[name].owner)}" for name in names]
        blocks.append(line(f"{region}: {' '.join(cells)}"))
    return blocks


def rolls_lines(rolls: dict[str, list[list[int]]]) -> list[Block]:
    if not rolls:
        return []
    shown = [
        line(f"{purpose} " + " ".join(f"d{s}={f}" for s, f in faces))
        for purpose, faces in rolls.items()
        if faces
    ]
    return [section(heading(ROLLS_HEADING), *shown)] if shown else []


def season_report(before: State, after: State, season: Season) -> Report:
    blocks: list[Block] = [heading(f"にじ野望 {season.label}の判定")]
    for phase in PHASES:
        if season.events[phase]:
            blocks.append(section(heading(phase), *(line(text) for text in season.events[phase])))
    found = season.war
    refused = [f"{o.area} {o.kind}：{why}" for o, why in found.refused]
    refused += [f"{s.order.area} 出陣：{s.cancelled}" for s in found.sorties if s.cancelled]
    if refused or found.battles:
        blocks.append(heading("出陣・合戦"))
        blocks += [line(text) for text in refused]
        for battle in found.battles:
            blocks += battle_lines(before, after, battle)
    if season.refused:
        blocks.append(
            section(heading("無効な命令"), *(line(f">>{p} {c} → {why}") for p, c, why in season.refused))
        )
    blocks += [line(f"{before.country_label(c)}は滅亡しました") for c in season.gone]
    if after.winner:
        blocks.append(line(strong(f"天下統一：{after.country_label(after.winner)}")))
    blocks += rolls_lines(season.rolls)
    blocks += changes(before, after)
    return report(*blocks, kind="resolution", result=result_data(before, after, season))


def _battle_data(state: State, battle: Battle) -> dict[str, Any]:
    fight = battle.fight
    assert fight is not None
    return {
        "area": battle.area,
        "defender": battle.defender,
        "stat": state.battle_stat(battle.area),
        "armies": [
            {
                "country": a.country,
                "side": a.side,
                "units": [
                    {"liver": f.liver, "troop": f.troop, "start": f.start, "left": f.soldiers, "role": f.role}
                    for f in a.fighters
                ],
            }
            for a in fight.armies
        ],
        "initiative": [a.country for a in fight.armies],
        "initiative_rolls": [list(pair) for pair in fight.initiative_rolls],
        "rounds": fight.rounds,
        "strikes": fight.strikes,
        "relief": [list(pair) for pair in battle.relief],
        "occupier": battle.occupier,
        "captured": [list(pair) for pair in battle.captured],
        "executed": battle.executed,
    }


def result_data(before: State, after: State, season: Season) -> dict[str, Any]:
    found = season.war
    return {
        "ruleset": "nijiyabou",
        "season": season.label,
        "events": {phase: lines for phase, lines in season.events.items() if lines},
        "refused": [{"post": p, "order": c, "reason": why} for p, c, why in season.refused],
        "sorties": [
            {
                "area": s.order.area,
                "target": s.order.target,
                "cancelled": s.cancelled,
                "units": [list(u) for u in s.units],
            }
            for s in found.sorties
        ],
        "war_refused": [{"area": o.area, "kind": o.kind, "reason": why} for o, why in found.refused],
        "battles": [_battle_data(before, b) for b in found.battles],
        "revolts": [
            {"text": text, "rounds": fought.rounds, "strikes": fought.strikes}
            for text, fought in season.revolts
            if fought is not None
        ],
        "rolls": season.rolls,
        "gone": season.gone,
        "winner": after.winner,
        "countries": sorted(after.countries),
    }
