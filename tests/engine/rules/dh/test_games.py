"""Whole games of random 行動提出 on the example and the arena: no line crashes the rules, and after
every phase the state keeps its invariants and goes through JSON unchanged."""

from __future__ import annotations

import json
import random

import pytest

from engine.rng import SeededSource
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.state import DHState
from engine.ruleset import result_data
from tests.engine.rules.dh.helpers import ARENA, EXAMPLE


def _line(rng: random.Random, state: DHState, name: str) -> str:
    square = rng.choice([*state.grid.squares(), ""])
    deed = rng.choice(["待機", "攻撃", "能力", "能力対象"])
    other = rng.choice(list(state.characters))
    if deed == "攻撃":
        deed = f"攻撃 {other}"
    elif deed == "能力対象":
        deed = f"能力 対象は{rng.choice([other, *state.grid.squares()])} 移動先は{rng.choice(state.grid.squares())}"
    return f"{name} {square + '移動 ' if square else ''}{deed}"


def _invariants(state: DHState) -> None:
    for character in state.characters.values():
        assert character.hp >= 0 and character.mind >= 0
        if character.square is not None:
            assert state.grid.open(character.square) and character.alive
        if not character.alive:
            assert character.square is None
    assert all(value >= 0 for value in state.dp.values())
    assert RULESET.state_from_dict(json.loads(json.dumps(RULESET.state_to_dict(state)))) == state


@pytest.mark.parametrize("path", [EXAMPLE, ARENA], ids=["example", "arena"])
@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_the_state_sound(path, seed: int) -> None:
    rng = random.Random(seed)
    state = RULESET.initial_state(RULESET.read_scenario(path.read_text("utf-8")))
    state.options.turn_limit = 4
    for phase in range(1, 9):
        mine = [c.name for c in state.characters.values() if c.side == state.acting.name]
        lines = [_line(rng, state, name) for name in mine if rng.random() < 0.9]
        if rng.random() < 0.2:
            state.late = rng.randint(1, 200)
        state, outcome = RULESET.resolve(
            state, RULESET.read_orders(state, "\n".join(lines)), SeededSource(bytes([seed, phase]) * 16)
        )
        _invariants(state)
        assert RULESET.verify_period(bytes([seed, phase]) * 16, result_data(outcome)) == []
        if RULESET.finished(state):
            break
    assert RULESET.finished(state)  # by the starters, or by DP after the last turn
