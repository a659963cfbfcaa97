"""都道府県バトロワ: the 47-prefecture dice battle royale, one folder, two ways to play.

| module | holds |
|---|---|
| `tables.py` | the seed's dice tables, face for face |
| `state.py` / `scenario.py` | the state; the scenario TOML (roster, groups, special rules) |
| `steps.py`, `special.py`, `ops.py`, `events.py` | the step machine: which die the rules need next and what a face does |
| `report.py` | events → markup-neutral report blocks |
| `assist.py`, `templates.py` | assisted play: the dice templates players post, and their checks |
| `sim.py` | whole games played offline (`threadgm simulate battle-royale`) |
| `help.py` | HELP: the rules as the bot applies them |
| `game.py` | the public API of the step machine |
| `ruleset.py` | the two faces to the bot: `AUTOMATIC` (on the clock) and `ASSISTED` (post by post) |
| `scenarios/` | the packaged 47-prefecture scenario |
"""

from engine.rules.battle_royale.game import (
    HELP,
    ID,
    NAME,
    BattleRoyaleError,
    DieRequest,
    ScenarioError,
    State,
    apply_roll,
    apply_roll_events,
    check_table,
    check_template,
    default_scenario,
    gm_report,
    initial_state,
    next_die,
    next_die_report,
    opening_report,
    parse_scenario_toml,
    play_game,
    play_step,
    request_report,
    roll_request,
    set_team_name,
    simulate,
    state_from_dict,
    state_to_dict,
)
from engine.rules.battle_royale.ruleset import ASSISTED, AUTOMATIC

__all__ = [
    "ASSISTED",
    "AUTOMATIC",
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
