"""Infighting in the 都道府県バトロワ, when both picks belong to one group: the die that says whether they
fight, stay together or are reselected, what the outcome of their fight does to them and the group,
and the die that says whether the group survives it.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    AutoFn,
    Events,
    RequestFn,
    current_battle,
    dissolve,
    kill,
    kill_together,
    leave_group,
    make_request,
    push,
)
from engine.rules.battle_royale.events import DieRequest, Said
from engine.rules.battle_royale.state import Battle, State, Step, bump, group_label, is_publicly_alive, quoted
from engine.rules.battle_royale.tables import ALLY, ESCAPE, INFIGHT, INFIGHT_AFTER, LOSE, WIN


def _infight_request(state: State, step: Step) -> DieRequest:
    battle = current_battle(state)
    return make_request(
        state,
        INFIGHT,
        step,
        subject=f"{group_label(state, battle.group)}の"
        f"{quoted(state, battle.base)}と{quoted(state, battle.opponent)}",
        reason="同じ団体に所属する都道府県同士が選ばれたため、仲間割れ判定",
    )


def _infight_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    outcome = INFIGHT.outcome(faces[0])
    if outcome == "戦闘":
        bump(state, "infight_battles")
        push(state, Step("battle"))
    elif outcome == ALLY:
        bump(state, "reconciliations")
        events.append(Said("仲間割れは起こらず、団体行動を続行"))
        push(state, Step("end_battle"))
    else:
        bump(state, "reselections")
        state.battle = None
        events.append(Said("【都道府県選択ダイス】を振り直します"))
        push(state, Step("select"))
    return INFIGHT.face(faces[0]).label or outcome


def _infight_after_check(state: State, step: Step, events: Events) -> None:
    group = current_battle(state).group
    if len(state.groups.get(group, [])) >= 2:
        push(state, Step("infight_after", {"group": group}))


def _infight_after_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state,
        INFIGHT_AFTER,
        step,
        subject=group_label(state, step.data["group"]),
        reason="仲間割れの戦闘で勝敗が決し、団体に二名以上残っているため",
    )


def _infight_after_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    outcome = INFIGHT_AFTER.outcome(faces[0])
    if faces[0] == 2:
        bump(state, "dissolutions")
        dissolve(state, step.data["group"], events, f"団体{step.data['group']}は解散")
    return outcome


def infight_outcome(state: State, battle: Battle, outcome: str, events: Events) -> None:
    """The battle die's outcome between two members of one group (no group dice follow)."""
    if outcome == ESCAPE:
        bump(state, "escapes")
        leave_group(state, battle.base, events)
        push(state, Step("end_battle"))
        return
    if outcome == ALLY:
        bump(state, "reconciliations")
        events.append(Said("和解！ 団体行動を続行"))
        push(state, Step("end_battle"))
        return
    if outcome == WIN:
        kill(state, battle.opponent, "仲間割れで敗北", events)
    elif outcome == LOSE:
        kill(state, battle.base, "仲間割れで敗北", events)
    else:
        bump(state, "mutual_kills")
        kill_together(state, _infight_victims(state, battle), "相打ち", events)
    push(state, Step("infight_after_check"), Step("end_battle"))


def _infight_victims(state: State, battle: Battle) -> list[str]:
    """The two fighters, or the whole group when infight_mutual = "group"."""
    if state.options.infight_mutual == "group":
        members = [m for m in state.groups.get(battle.group, []) if is_publicly_alive(state, m)]
        return members or [battle.base, battle.opponent]
    return [battle.base, battle.opponent]


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    "infight": (_infight_request, _infight_apply),
    "infight_after": (_infight_after_request, _infight_after_apply),
}
AUTO_STEPS: dict[str, AutoFn] = {"infight_after_check": _infight_after_check}
