"""都道府県バトロワ (seed 000): the ruleset's face — id, name, help — and its public API.

The game is a step machine. `next_die(state)` says which die the rules need (a `DieRequest`: the seed's
table, its sides, 基準, faces and why); `apply_roll(state, faces)` returns the new state and a `Report`.
Automatic play loops `next_die` + `source.stream(request.purpose).roll(sides)` + `apply_roll`
(`play_step`, `play_game`); assisted play compares a player's posted template with `check_table`.
The modules behind it: tables (`battle_royale_tables`), state (`battle_royale_state`), scenario
(`battle_royale_scenario`), steps (`battle_royale_steps`), special rules (`battle_royale_special`),
reports (`battle_royale_report`), assisted play (`battle_royale_assist`), simulation (`battle_royale_sim`).
"""

from __future__ import annotations

from engine.rules.battle_royale_assist import (
    check_table,
    check_template,
    gm_report,
    next_die_report,
    opening_report,
    set_team_name,
)
from engine.rules.battle_royale_events import DieRequest
from engine.rules.battle_royale_help import HELP
from engine.rules.battle_royale_ops import BattleRoyaleError
from engine.rules.battle_royale_report import request_report
from engine.rules.battle_royale_scenario import ScenarioError, default_scenario, parse_scenario_toml
from engine.rules.battle_royale_sim import play_game, play_step, roll_request, simulate
from engine.rules.battle_royale_state import State, state_from_dict, state_to_dict
from engine.rules.battle_royale_steps import apply_roll, apply_roll_events, initial_state, next_die

ID = "battle-royale"
NAME = "都道府県バトロワ"

__all__ = [
    "HELP",
    "ID",
    "NAME",
    "BattleRoyaleError",
    "DieRequest",
    "ScenarioError",
    "State",
    "apply_roll",
    "apply_roll_events",
    "check_table",
    "check_template",
    "default_scenario",
    "gm_report",
    "initial_state",
    "next_die",
    "next_die_report",
    "opening_report",
    "parse_scenario_toml",
    "play_game",
    "play_step",
    "request_report",
    "roll_request",
    "set_team_name",
    "simulate",
    "state_from_dict",
    "state_to_dict",
]
