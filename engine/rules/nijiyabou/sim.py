"""`threadgm simulate nijiyabou`: whole games played by random lords, to see that games end and how
long they take. Every season each area of every country takes one command: a liver to an own area
without livers (when it has two), or an interior area's 足軽 to the weakest own frontier area, else
a sortie on its weakest enemy neighbour when it is not much weaker (mostly), else 徴兵 when it has
国力, else 内政; an idle liver leads the area's 足軽 when nobody does. The dice come
from a seeded `random.Random` per run (fast; simulations are not verifiable and publish no key)."""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

from engine.rules.nijiyabou.grammar import parse_line
from engine.rules.nijiyabou.resolution import resolve_season
from engine.rules.nijiyabou.state import State, initial_state
from engine.ruleset import Order, OrderText

SEASON_CAP = 400


class _Dice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)


class _Source:
    def __init__(self, rng: random.Random) -> None:
        self.dice = _Dice(rng)

    def stream(self, purpose: str) -> _Dice:
        return self.dice


def _soldiers(state: State, area: str) -> int:
    return sum(state.areas[area].troops.values())


def _enemies(state: State, area: str) -> list[str]:
    owner = state.areas[area].owner
    return [near for near in state.neighbours(area) if state.areas[near].owner != owner]


def _move(state: State, area: str, rng: random.Random) -> str | None:
    """Livers to own areas that have none; an interior area's 足軽 to the weakest frontier area."""
    where, here = state.areas[area], state.livers_in(area)
    own = [a for a in state.areas_of(where.owner or "") if a != area]
    empty = [a for a in own if not state.livers_in(a)]
    if empty and len(here) > 1:
        return f"{area}：移動 {rng.choice(empty)} {state.livers[here[-1]].name}"
    frontier = [a for a in own if _enemies(state, a) and state.livers_in(a)]
    if not _enemies(state, area) and frontier and where.troops["足軽"] > 0:
        weakest = min(frontier, key=lambda a: _soldiers(state, a))
        return f"{area}：移動 {weakest} 足軽{where.troops['足軽']}"
    return None


def _line(state: State, area: str, rng: random.Random) -> str:
    where = state.areas[area]
    moving = _move(state, area, rng)
    if moving is not None:
        return moving
    led = sum(where.troops[t] for t in where.leads)
    weakest = min(_enemies(state, area), key=lambda near: _soldiers(state, near), default=None)
    if weakest is not None and led > 0.8 * _soldiers(state, weakest) and rng.random() < 0.6:
        return f"{area}：出陣 {weakest}"
    if where.power >= 2:
        return f"{area}：徴兵 足軽{1000 * min(where.power, 5)}"
    return f"{area}：内政"


def _organize(state: State, area: str) -> str | None:
    """A liver that leads nothing takes 足軽 when nobody leads them."""
    where = state.areas[area]
    idle = [k for k in state.livers_in(area) if state.lead_type(area, k) is None]
    if idle and "足軽" not in where.leads and where.troops["足軽"] > 0:
        return f"{area}：編成 {state.livers[idle[0]].name}(足軽)"
    return None


def random_orders(state: State, rng: random.Random) -> list[Order]:
    orders = []
    for area, where in state.areas.items():
        if where.owner is None or not state.livers_in(area):
            continue
        for text in (_line(state, area, rng), _organize(state, area)):
            if text is None:
                continue
            parsed = parse_line(text)
            assert isinstance(parsed, OrderText), text
            orders.append(Order(len(orders) + 1, 0, "sim", "sim", parsed.command, parsed.canonical, gm=True))
    return orders


def play(scenario: Mapping[str, Any], seed: str) -> dict[str, Any]:
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    state = initial_state(scenario)
    source = _Source(rng)
    started = time.perf_counter()
    battles = 0
    while state.winner is None and state.season < SEASON_CAP:
        state, season = resolve_season(state, random_orders(state, rng), source)
        battles += len(season.war.battles)
    elapsed = time.perf_counter() - started
    return {
        "seasons": state.season,
        "finished": state.winner is not None,
        "countries": len(state.countries),
        "battles": battles,
        "seconds_per_season": elapsed / max(state.season, 1),
    }


def simulate(scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str:
    games = [play(scenario, f"simulate|{seed}|{run}") for run in range(runs)]
    seasons = [g["seasons"] for g in games if g["finished"]]
    figures = {
        "runs": runs,
        "finished": len(seasons),
        "season_cap": SEASON_CAP,
        "seasons_mean": statistics.fmean(seasons) if seasons else None,
        "seasons_min": min(seasons, default=None),
        "seasons_max": max(seasons, default=None),
        "battles_mean": statistics.fmean(g["battles"] for g in games),
        "seconds_per_season": statistics.fmean(g["seconds_per_season"] for g in games),
        "verifiable": False,
    }
    if as_json:
        return json.dumps(figures, ensure_ascii=False)
    ended = (
        f"{figures['seasons_mean']:.1f}季節（最短{figures['seasons_min']}、最長{figures['seasons_max']}）"
        if seasons
        else "なし"
    )
    return "\n".join(
        [
            f"にじ野望 シミュレーション {runs}回（ランダムな君主、{SEASON_CAP}季節まで）",
            f"天下統一で終わった回: {len(seasons)}／{runs}、平均 {ended}",
            f"合戦の平均: {figures['battles_mean']:.1f}回／ゲーム、1季節あたり {figures['seconds_per_season'] * 1000:.2f}ms（命令作りを含む）",
            "シミュレーションの乱数は検証できません（ピリオドの鍵を使わない高速な乱数です）。",
        ]
    )
