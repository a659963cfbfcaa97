"""Rule (4) of the 都道府県バトロワ, after each battle: the revival dice its fallen set off, the renumbered
table and the survivor table, the periodic 戦況まとめ, and whether the game ends (the last prefecture or
team standing, the mastermind's final) or the next selection follows.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    AutoFn,
    Events,
    current_battle,
    finish,
    narrating,
    push,
    renumber,
    summary,
    survivor_table,
)
from engine.rules.battle_royale.season_rules import final_due, revival_steps
from engine.rules.battle_royale.state import Battle, State, Step, contenders, is_alive, team_name


def _end_battle(state: State, step: Step, events: Events) -> None:
    battle = current_battle(state)
    fallen = state.eliminated[battle.mark :]
    steps = [] if battle.kind == "final" else revival_steps(state, fallen, events)
    push(state, *steps, Step("after_battle"))


def _after_battle(state: State, step: Step, events: Events) -> None:
    battle = current_battle(state)
    state.battles += 1
    fallen = tuple(state.eliminated[battle.mark :])
    revived = tuple(battle.revived)
    if (fallen or revived) and state.options.renumber_after_dead_picks == 0 and battle.final_result == "":
        renumber(state, "脱落者が出たため都道府県表を作り直します", events)
    if (fallen or revived) and narrating(events):
        events.append(survivor_table(state, fallen, revived))
    state.battle = None
    state.die_index = 0
    every = state.options.summary_every
    if every and state.battles % every == 0 and battle.final_result == "" and narrating(events):
        events.append(summary(state))
    _end_or_next(state, battle, events)


def _end_or_next(state: State, battle: Battle, events: Events) -> None:
    mm = state.mastermind
    if battle.final_result:
        assert mm is not None
        winners = [mm.name] + [n for n in mm.collaborators if is_alive(state, n)]
        if battle.final_result == "reconciled":
            winners = [mm.name, *contenders(state)]
        elif battle.final_result == "fallen":
            winners = [n for n in mm.collaborators if is_alive(state, n)]  # only those who stood aside
        finish(state, battle.final_result, winners, "", events)
    elif state.options.tag_match:
        standing = [team for team in state.table if state.teams.get(team)]
        if len(standing) == 1:
            finish(state, "winner", list(state.teams[standing[0]]), team_name(state, standing[0]), events)
        else:
            push(state, Step("select"))
    elif final_due(state):
        push(state, Step("final_start"))
    elif len(contenders(state)) == 1:
        finish(state, "winner", contenders(state), "", events)
    else:
        push(state, Step("select"))


AUTO_STEPS: dict[str, AutoFn] = {
    "end_battle": _end_battle,
    "after_battle": _after_battle,
}
