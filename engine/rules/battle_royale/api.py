"""都道府県バトロワ: the game's rules face — id, name, help — and the public API of its step machine.

The game is a step machine. `next_die(state)` says which die the rules need (a `DieRequest`: the seed's
table, its sides, 基準, faces and why); `apply_roll(state, faces)` returns the new state and a `Report`.
Automatic play loops `next_die` + `source.stream(request.purpose).roll(sides)` + `apply_roll`
(`play_step`, `play_game`); assisted play compares a player's posted template with `check_table`.
The modules behind it are listed in the folder's `__init__.py`.
"""

from __future__ import annotations

from engine.rules.battle_royale.assist import (
    check_table,
    check_template,
    gm_report,
    next_die_report,
    opening_report,
    set_team_name,
)
from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.events import DieRequest
from engine.rules.battle_royale.help import HELP
from engine.rules.battle_royale.newcomers import add_newcomer
from engine.rules.battle_royale.report import request_report
from engine.rules.battle_royale.resolution import (
    apply_roll,
    apply_roll_events,
    initial_state,
    next_die,
    settle,
)
from engine.rules.battle_royale.scenario import ScenarioError, default_scenario, parse_scenario_toml
from engine.rules.battle_royale.sim import play_game, play_step, roll_request, simulate
from engine.rules.battle_royale.state import State, state_from_dict, state_to_dict

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
    "add_newcomer",
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
    "settle",
    "simulate",
    "state_from_dict",
    "state_to_dict",
]
