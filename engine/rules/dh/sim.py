"""`threadgm simulate dh`: whole games played by themselves, for a GM weighing a scenario. Every
character of the side whose phase it is walks (up to its 2 squares) toward the nearest enemy and
attacks it when it reaches its square; the rules are the bot's own, the dice come from
sha256("simulate|SEED|run|phase")."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.rng import SeededSource
from engine.rules.dh.control import ready_characters
from engine.rules.dh.geometry import distances, plan_move
from engine.rules.dh.grammar import ATTACK, WAIT, Command
from engine.rules.dh.resolution import resolve_phase
from engine.rules.dh.scenario import initial_state
from engine.rules.dh.state import Character, DHState
from engine.rules.dh.stats import move_points

TEMPLATE = Path(__file__).resolve().parent / "scenarios" / "template.toml"


def plain_line(state: DHState, character: Character) -> Command:
    """The plain policy: to the reachable square nearest the nearest enemy (ties by name), attacking
    it on arrival."""
    grid, here = state.grid, character.square
    assert here is not None
    enemies = [c for c in state.on_map() if c.side != character.side and c.square is not None]
    if not enemies:
        return Command(character.name)
    walk = distances(grid, here)
    reachable = [e for e in enemies if e.square in walk] or enemies
    target = min(reachable, key=lambda e: (walk.get(str(e.square), 99), e.name))
    to_target = distances(grid, str(target.square))
    points = move_points(character, state.options)
    near = [s for s in grid.squares() if plan_move(grid, here, s, points, frozenset()) is not None]
    goal = min(near, key=lambda s: (to_target.get(s, 99), walk.get(s, 99), s))
    if goal == target.square:
        return Command(character.name, goal, ATTACK, target.name)
    return Command(character.name, goal, WAIT)


def play(scenario: Mapping[str, Any], seed: str, run: int) -> DHState:
    """One whole game: phases until a side wins or the last turn ends."""
    state = initial_state(scenario)
    while state.winner is None:
        lines = [(None, plain_line(state, state.characters[name])) for name in ready_characters(state)]
        key = hashlib.sha256(f"simulate|{seed}|{run}|{state.phase}".encode()).digest()
        state, _, _ = resolve_phase(state, lines, SeededSource(key))
    return state


def simulate(scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str:
    """`runs` games: wins per side, draws and the mean number of turns played."""
    data = scenario or tomllib.loads(TEMPLATE.read_text("utf-8"))
    sides = [side.name for side in initial_state(data).sides]
    wins = {name: 0 for name in [*sides, "引き分け"]}
    turns = 0
    for run in range(runs):
        final = play(data, seed, run)
        wins[str(final.winner)] += 1
        turns += final.turn
    mean = turns / runs if runs else 0.0
    if as_json:
        return json.dumps({"runs": runs, "wins": wins, "mean_turns": mean}, ensure_ascii=False)
    tally = " ／ ".join(f"{name} {count}" for name, count in wins.items())
    return f"DH 自動対戦 {runs}回: {tally}（平均 {mean:.1f} ターン）"
