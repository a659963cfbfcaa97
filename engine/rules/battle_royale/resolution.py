"""The step machine of the 都道府県バトロワ: `next_die` says which die the rules need, `apply_roll` takes its
faces and returns the new state and what happened. The steps themselves, a (request, apply) pair per
die and a function per automatic transition, are registered by the module of their rule and merged
here: `selection.py`, `battle.py`, `group_dice.py`, `infighting.py`, `aftermath.py` and `season_rules.py`.
Steps with a single possible outcome (a one-member pick, a cap of one) are settled without a die, so a
player is never asked to roll a 1-sided die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.report import Report
from engine.rules.battle_royale import (
    aftermath,
    battle,
    group_dice,
    infighting,
    newcomers,
    season_rules,
    selection,
    tag_mutual,
)
from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    AutoFn,
    BattleRoyaleError,
    Events,
    RequestFn,
    Silent,
    push,
)
from engine.rules.battle_royale.events import DieRequest, Rolled
from engine.rules.battle_royale.report import render
from engine.rules.battle_royale.scenario import build_scenario
from engine.rules.battle_royale.season_rules import setup_steps
from engine.rules.battle_royale.state import ALIVE, RESERVE, Mastermind, State, Step, clone

# --- public entry points -----------------------------------------------------------------------------


def initial_state(scenario: dict[str, Any] | None = None) -> State:
    """A new game from a scenario dict (an empty dict plays the 47 prefectures with default options).
    Raises ScenarioError listing every problem of the scenario."""
    built = build_scenario(scenario if scenario is not None else {})
    options = built.options
    status = {p.name: RESERVE if options.revival else ALIVE for p in built.roster}
    state = State(built.roster, options, status)
    if options.mastermind:
        state.mastermind = Mastermind(lives=options.mastermind_lives)
    state.pending = setup_steps(state)
    advance(state, [])
    return state


def next_die(state: State) -> DieRequest | None:
    """The die the rules need now, or None once the game is over."""
    if state.ending is not None or not state.pending:
        return None
    step = state.pending[0]
    handler = DIE_STEPS.get(step.kind)
    if handler is None:
        raise BattleRoyaleError(f"進行状態が壊れています（未処理の手順 {step.kind}）")
    return handler[0](state, step)


def apply_roll(state: State, faces: int | Sequence[int]) -> tuple[State, Report]:
    """Take the faces of the die `next_die(state)` asked for (an int, or a pair for 【都道府県選択ダイス】)."""
    state2, events = apply_roll_events(state, faces)
    return state2, render(events)


def apply_roll_events(
    state: State, faces: int | Sequence[int], request: DieRequest | None = None, *, narrate: bool = True
) -> tuple[State, Events]:
    """`apply_roll` with the events instead of the report; the same state transition. `request` may pass
    the `next_die(state)` the caller already holds; `narrate=False` (simulations) keeps no events."""
    if request is None:
        request = next_die(state)
    if request is None:
        raise BattleRoyaleError("このゲームは既に終了しています")
    rolled = _check_faces(request, faces)
    new = clone(state)
    events: Events = [] if narrate else Silent()
    step = new.pending.pop(0)
    _apply_die(new, step, request, rolled, events, automatic=False)
    new.die_index += 1
    new.dice_total += 1
    advance(new, events)
    return new, events


def settle(state: State) -> tuple[State, Report]:
    """Run the automatic steps a GM's change left at the front of the queue (a newcomer's entry), with
    their report; the state is returned as it was when there are none."""
    if not state.pending or state.pending[0].kind not in AUTO_STEPS:
        return state, Report(())
    ready, events = clone(state), []
    advance(ready, events)
    return ready, render(events)


def advance(state: State, events: Events) -> None:
    """Run automatic steps (and dice with one possible outcome) until a real die is needed or the end."""
    while state.ending is None:
        if not state.pending:
            push(state, Step("select"))
        step = state.pending[0]
        auto = AUTO_STEPS.get(step.kind)
        if auto is not None:
            state.pending.pop(0)
            auto(state, step, events)
            continue
        if step.kind in _NEVER_ONE_SIDED:
            return
        request = DIE_STEPS[step.kind][0](state, step)
        if request.sides == 1 and request.count == 1:
            state.pending.pop(0)
            _apply_die(state, step, request, (1,), events, automatic=True)
            continue
        return


def _check_faces(request: DieRequest, faces: int | Sequence[int]) -> tuple[int, ...]:
    rolled = (faces,) if isinstance(faces, int) else tuple(faces)
    if len(rolled) != request.count:
        raise BattleRoyaleError(f"【{request.name}】は {request.command} です（出目{request.count}個が必要）")
    for face in rolled:
        if type(face) is not int or not 1 <= face <= request.sides:
            raise BattleRoyaleError(f"【{request.name}】の出目 {face!r} は 1～{request.sides} の範囲外です")
    return rolled


def _apply_die(
    state: State, step: Step, request: DieRequest, faces: tuple[int, ...], events: Events, *, automatic: bool
) -> None:
    mark = len(events)
    result = DIE_STEPS[step.kind][1](state, step, faces, request, events)
    events.insert(mark, Rolled(request, faces, result, automatic))


# Steps whose die always has two or more faces: `advance` need not build their request to find out.
_NEVER_ONE_SIDED = frozenset(
    {
        "select",
        "select_opponent",
        "policy",
        "surprise",
        "battle",
        "infight",
        "infight_after",
        "group_win_check",
        "loss_count",
        "pair_after_loss",
        "escape_check",
        "final",
        "revival",
        "tag_loss",
    }
)

DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    **selection.DIE_STEPS,
    **battle.DIE_STEPS,
    **group_dice.DIE_STEPS,
    **infighting.DIE_STEPS,
    **season_rules.DIE_STEPS,
    **tag_mutual.DIE_STEPS,
}
AUTO_STEPS: dict[str, AutoFn] = {
    **selection.AUTO_STEPS,
    **group_dice.AUTO_STEPS,
    **infighting.AUTO_STEPS,
    **aftermath.AUTO_STEPS,
    **season_rules.AUTO_STEPS,
    **tag_mutual.AUTO_STEPS,
    **newcomers.AUTO_STEPS,
}
