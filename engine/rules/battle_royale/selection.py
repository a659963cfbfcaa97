"""Rule (1) of the 都道府県バトロワ, selection: the 【都道府県選択ダイス】, the 【対戦都道府県選択ダイス】 that finds
an opponent for the survivor of a dead pick, what a run of dead picks costs (a renumbered table), and the
start of the battle a pick makes (infighting when both come from one group); also the selection table
itself, made when setup ends.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    AutoFn,
    Events,
    RequestFn,
    entrants,
    make_request,
    narrating,
    push,
    renumber,
    table_entries,
)
from engine.rules.battle_royale.events import BattleStart, DieRequest, Said
from engine.rules.battle_royale.season_rules import designate
from engine.rules.battle_royale.state import (
    Battle,
    State,
    Step,
    bump,
    entry_alive,
    entry_label,
    is_alive,
    shown,
    side_of,
)
from engine.rules.battle_royale.tables import opponent_table, selection_table


def _select_request(state: State, step: Step) -> DieRequest:
    what = "2チーム" if state.options.tag_match else "二人"
    reason = f"戦闘する{what}を選出します（先に出た数字が基準）"
    if state.dead_streak:
        reason = f"脱落済みが出たため振り直し（連続{state.dead_streak}回）。" + reason
    return make_request(state, selection_table(table_entries(state)), step, reason=reason)


def _opponent_request(state: State, step: Step) -> DieRequest:
    base = step.data["base"]
    return make_request(
        state,
        opponent_table(table_entries(state)),
        step,
        base=entry_label(state, base),
        reason="片方が脱落済みだったため、残った方を基準に対戦相手を選び直します",
    )


def _pick_label(state: State, number: int, key: str) -> str:
    label = entry_label(state, key)
    return f"{number}.{label}" + ("" if entry_alive(state, key) else "（脱落）")


def _dead_pick(state: State, keys: list[str], events: Events) -> None:
    state.dead_streak += 1
    bump(state, "dead_picks")
    events.append(Said("".join(f"『{entry_label(state, k)}』" for k in keys) + "は脱落済み"))
    limit = state.options.renumber_after_dead_picks
    if limit and state.dead_streak >= limit:
        renumber(
            state,
            f"脱落済みの都道府県が{state.dead_streak}回続けて選ばれたため、都道府県表を作り直します",
            events,
        )


def _select_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    first, second = (state.table[f - 1] for f in faces)
    result = f"{_pick_label(state, faces[0], first)} ／ {_pick_label(state, faces[1], second)}"
    if designate(state, {first, second}, events):
        push(state, Step("final_start"))
        return result
    alive = [k for k in (first, second) if entry_alive(state, k)]
    if first == second:
        if alive:
            events.append(Said("同じ番号が二つ出たため振り直し"))
            push(state, Step("select"))
            return result
        _dead_pick(state, [first], events)
        push(state, Step("select"))
    elif len(alive) == 2:
        _start(state, first, second, events)
    elif alive:
        _dead_pick(state, [k for k in (first, second) if k not in alive], events)
        events.append(
            Said(f"『{entry_label(state, alive[0])}』を基準に【対戦都道府県選択ダイス】で相手を選び直し")
        )
        push(state, Step("select_opponent", {"base": alive[0]}))
    else:
        _dead_pick(state, [first, second], events)
        push(state, Step("select"))
    return result


def _opponent_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    base = step.data["base"]
    key = state.table[faces[0] - 1]
    result = _pick_label(state, faces[0], key)
    if key == base:
        events.append(Said("基準自身が出たため振り直し"))
        push(state, Step("select_opponent", {"base": base}))
        return result
    if designate(state, {key}, events):
        push(state, Step("final_start"))
        return result
    if entry_alive(state, key):
        _start(state, base, key, events)
    else:
        _dead_pick(state, [key], events)
        push(state, Step("select_opponent", {"base": base}))
    return result


def _start(state: State, base: str, opponent: str, events: Events) -> None:
    state.dead_streak = 0
    number = state.battles + 1
    base_side, opponent_side = side_of(state, base), side_of(state, opponent)
    group = state.group_of.get(base, "")
    infight = not state.options.tag_match and bool(group) and group == state.group_of.get(opponent)
    if infight:
        base_side, opponent_side = [base], [opponent]
    battle = Battle(
        number,
        "infight" if infight else "battle",
        base,
        opponent,
        base_side,
        opponent_side,
        group=group if infight else "",
        mark=len(state.eliminated),
    )
    state.battle = battle
    bump(state, "encounters")
    events.append(
        BattleStart(
            number,
            battle.kind,
            entry_label(state, base),
            entry_label(state, opponent),
            tuple(shown(state, m) for m in base_side),
            tuple(shown(state, m) for m in opponent_side),
        )
    )
    if infight:
        bump(state, "infights")
        push(state, Step("infight"))
    else:
        push(state, Step("policy"))


def _setup_done(state: State, step: Step, events: Events) -> None:
    state.setup_done = True
    state.die_index = 0
    if state.options.tag_match:
        state.table = list(state.teams)
    else:
        state.table = [p.name for p in state.roster if is_alive(state, p.name)]
    if state.options.mastermind:
        events.append(Said("黒幕陣営は非公開のダイスで決定しました（正体は決戦まで明かされません）"))
    if narrating(events):
        events.append(entrants(state))
    push(state, Step("select"))


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    "select": (_select_request, _select_apply),
    "select_opponent": (_opponent_request, _opponent_apply),
}
AUTO_STEPS: dict[str, AutoFn] = {"setup_done": _setup_done}
