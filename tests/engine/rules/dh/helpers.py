"""Shared pieces of the DH tests: the case files' arena, a phase context on recorded dice, and power
specs written the way a scenario writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.rng import RecordedDice, RecordedSource
from engine.rules.dh.context import Context
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.scenario import _power
from engine.rules.dh.state import DHState, Power

DH = Path(__file__).resolve().parents[4] / "engine" / "rules" / "dh"
ARENA = DH / "cases" / "arena.toml"
EXAMPLE = DH / "scenarios" / "template.toml"


def arena(**changes: Any) -> DHState:
    state = RULESET.initial_state(RULESET.read_scenario(ARENA.read_text("utf-8")))
    for key, value in changes.items():
        setattr(state, key, value)
    return state


def context(state: DHState, *faces: int, sides: int = 100) -> Context:
    return Context(state, RecordedSource(default=RecordedDice([(sides, face) for face in faces])))


def power(**table: Any) -> Power:
    """A power from a scenario table (`name` defaults to 技)."""
    return _power({"name": "技", **table}, "テスト")
