"""The step machine of the 都道府県バトロワ: `next_die` says which die the rules need, `apply_roll` takes its
faces and returns the new state and what happened.

Rules (1)–(6) of the seed live here: selection and dead picks, policy, surprise, the battle tables, the
outcomes and every group die (win drop-out, loss drop-out, escape, the pair's die, infighting). Special
rules add their steps from `battle_royale_special`. Steps with a single possible outcome (a one-member
pick, a cap of one) are settled without a die, so a player is never asked to roll a 1-sided die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.report import Report
from engine.rules.battle_royale.events import BattleStart, DieRequest, Rolled, Said
from engine.rules.battle_royale.ops import (
    ApplyFn,
    AutoFn,
    BattleRoyaleError,
    Events,
    RequestFn,
    Silent,
    ally,
    dissolve,
    entrants,
    finish,
    kill,
    kill_together,
    leave_group,
    make_request,
    narrating,
    push,
    renumber,
    summary,
    survivor_table,
    table_entries,
    would_leave_nobody,
)
from engine.rules.battle_royale.report import render
from engine.rules.battle_royale.scenario import build_scenario
from engine.rules.battle_royale.special import (
    AUTO_STEPS as SPECIAL_AUTO,
)
from engine.rules.battle_royale.special import (
    DIE_STEPS as SPECIAL_DIE,
)
from engine.rules.battle_royale.special import (
    designate,
    final_due,
    revival_steps,
    setup_steps,
    tag_ally,
    tag_can_ally,
    tag_defeat,
)
from engine.rules.battle_royale.state import (
    ALIVE,
    RESERVE,
    Battle,
    Mastermind,
    State,
    Step,
    bump,
    clone,
    contenders,
    entry_alive,
    entry_label,
    group_label,
    is_alive,
    is_hidden_mastermind,
    is_publicly_alive,
    quoted,
    shown,
    side_of,
    team_name,
)
from engine.rules.battle_royale.tables import (
    ALLY,
    ESCAPE,
    FAILURE,
    GROUP_DROPOUT_CHECK,
    GROUP_ESCAPE_CHECK,
    INFIGHT,
    INFIGHT_AFTER,
    LOSE,
    MUTUAL,
    NORMAL,
    PAIR_AFTER_LOSS,
    POLICY,
    SUCCESS,
    SURPRISE,
    SURPRISE_CHECK,
    WIN,
    Face,
    Table,
    battle_table,
    count_table,
    opponent_table,
    pick_table,
    selection_table,
)

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


def _battle(state: State) -> Battle:
    if state.battle is None:
        raise BattleRoyaleError("進行状態が壊れています（戦闘中ではありません）")
    return state.battle


def _tag(state: State) -> bool:
    return state.options.tag_match


# --- (1) selection -----------------------------------------------------------------------------------


def _select_request(state: State, step: Step) -> DieRequest:
    what = "2チーム" if _tag(state) else "二人"
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


def _side_text(state: State, members: list[str]) -> str:
    return "".join(quoted(state, m) for m in members)


def _start(state: State, base: str, opponent: str, events: Events) -> None:
    state.dead_streak = 0
    number = state.battles + 1
    base_side, opponent_side = side_of(state, base), side_of(state, opponent)
    group = state.group_of.get(base, "")
    infight = not _tag(state) and bool(group) and group == state.group_of.get(opponent)
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


# --- (2) policy and surprise ---------------------------------------------------------------------------


def _base_label(state: State) -> str:
    return entry_label(state, _battle(state).base)


def _policy_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state, POLICY, step, base=_base_label(state), reason="基準が正面から挑むか奇襲を行うかを決めます"
    )


def _policy_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    outcome = POLICY.outcome(faces[0])
    if outcome == SURPRISE:
        bump(state, "surprises")
        push(state, Step("surprise"))
    else:
        push(state, Step("battle"))
    return outcome


def _surprise_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state,
        SURPRISE_CHECK,
        step,
        base=_base_label(state),
        reason="戦闘方針が奇襲だったため、奇襲の成否を判定します",
    )


def _surprise_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    battle = _battle(state)
    outcome = SURPRISE_CHECK.outcome(faces[0])
    battle.surprise = True
    if outcome == FAILURE:
        bump(state, "surprise_failures")
        battle.base, battle.opponent = battle.opponent, battle.base
        battle.base_side, battle.opponent_side = battle.opponent_side, battle.base_side
        battle.base_moved = True
        events.append(Said(f"奇襲失敗！ 基準が被奇襲者『{entry_label(state, battle.base)}』に移行"))
    push(state, Step("battle"))
    return outcome


# --- (3)–(6) the battle die ------------------------------------------------------------------------------


def current_battle_table(state: State) -> Table:
    battle = _battle(state)
    if battle.kind == "infight":
        return NORMAL
    return battle_table(battle.surprise, len(battle.base_side), len(battle.opponent_side))


def _size_text(state: State, members: list[str], key: str) -> str:
    if _tag(state):
        return f"{len(members)}人"
    gid = state.group_of.get(key)
    return f"団体{gid}・{len(members)}人" if gid and len(members) > 1 else "単独"


def _battle_reason(state: State, table: Table) -> str:
    battle = _battle(state)
    if battle.kind == "infight":
        return "仲間割れの戦闘は【通常戦闘ダイス】で行います"
    base_size, opp_size = len(battle.base_side), len(battle.opponent_side)
    sides = (
        f"基準『{entry_label(state, battle.base)}』（{_size_text(state, battle.base_side, battle.base)}）"
        f"対『{entry_label(state, battle.opponent)}』"
        f"（{_size_text(state, battle.opponent_side, battle.opponent)}）"
    )
    if not battle.surprise:
        how = "戦闘方針は正面"
    elif battle.base_moved:
        how = "奇襲失敗で基準が被奇襲者に移ったため有利ダイス"
    else:
        how = "奇襲成功のため有利ダイス"
    if base_size == opp_size:
        size = "人数が同じなので通常の表" if base_size == 1 else "団体同士で同数なので通常の表"
    elif base_size > opp_size:
        size = "基準側の人数が多い為、勝利＋1の団体戦用の表"
    else:
        size = "基準側の人数が少ない為、敗北＋1の団体戦用の表"
    return f"{sides}。{how}、{size}"


def _battle_request(state: State, step: Step) -> DieRequest:
    table = current_battle_table(state)
    return make_request(state, table, step, base=_base_label(state), reason=_battle_reason(state, table))


def _reroll(state: State, step: Step, why: str, events: Events) -> None:
    bump(state, "rerolls")
    events.append(Said(f"{why}ため、振り直し"))
    push(state, step)


def _battle_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    battle = _battle(state)
    outcome = req.table.outcome(faces[0])
    fighters = battle.base_side + battle.opponent_side
    if outcome == MUTUAL and would_leave_nobody(state, fighters):
        _reroll(state, step, "相打ちでは誰も残らない", events)
        return f"{outcome}（振り直し）"
    if outcome == ALLY and battle.kind == "battle":
        if any(is_hidden_mastermind(state, m) for m in fighters):
            _reroll(state, step, "「正体のわからない何者か」とは手を組めない", events)
            return f"{outcome}（振り直し）"
        if _tag(state) and not tag_can_ally(battle):
            if state.options.tag_ally_inapplicable == "reroll":
                _reroll(state, step, "タッグマッチの「手を組む」は一人生存者が戦う時のみ有効な", events)
                return f"{outcome}（振り直し）"
            events.append(Said("タッグマッチの「手を組む」は一人生存者が戦う時のみ有効：逃走として扱います"))
            outcome = ESCAPE
    battle.outcome = outcome
    if battle.kind == "infight":
        _infight_outcome(state, battle, outcome, events)
    elif outcome in (WIN, LOSE):
        _decide(state, battle, "base" if outcome == WIN else "opponent", events)
    elif outcome == ESCAPE:
        _escape(state, battle, events)
    elif outcome == ALLY:
        if _tag(state):
            tag_ally(state, battle, events)
        else:
            ally(state, battle.base, battle.opponent, events)
        push(state, Step("end_battle"))
    else:
        bump(state, "mutual_kills")
        if _tag(state):
            push(
                state,
                *tag_defeat(state, battle.base, events),
                *tag_defeat(state, battle.opponent, events),
                Step("end_battle"),
            )
        else:
            kill_together(state, list(fighters), "相打ち", events)
            push(state, Step("end_battle"))
    return outcome


def _decide(state: State, battle: Battle, winner: str, events: Events) -> None:
    """勝利/敗北: the losing side first (the selected one falls, then the rest by dice), then the winning
    group's drop-out dice, then anyone who chose to join the winners."""
    battle.winner = winner
    loser_key = battle.opponent if winner == "base" else battle.base
    loser_side = battle.opponent_side if winner == "base" else battle.base_side
    winner_side = battle.base_side if winner == "base" else battle.opponent_side
    steps: list[Step] = []
    if _tag(state):
        steps += tag_defeat(state, loser_key, events)
    else:
        kill(state, loser_side[0], "敗北", events)
        rest = [m for m in loser_side[1:] if is_publicly_alive(state, m)]
        if len(rest) == 1:
            steps.append(Step("pair_after_loss", {"partner": rest[0]}))
        elif rest:
            steps.append(Step("loss_count", {"members": rest}))
        if len(winner_side) >= 2:
            steps.append(Step("group_win_check"))
        steps.append(Step("joins"))
    steps.append(Step("end_battle"))
    push(state, *steps)


def _escape(state: State, battle: Battle, events: Events) -> None:
    bump(state, "escapes")
    fleeing = [m for m in battle.base_side if is_publicly_alive(state, m)]
    if len(fleeing) >= 2 and not _tag(state):
        events.append(Said(f"{_side_text(state, fleeing)}は団体で逃走を図る"))
        push(state, Step("escape_check"), Step("end_battle"))
        return
    events.append(Said(f"『{entry_label(state, battle.base)}』は逃走した（脱落者なし）"))
    push(state, Step("end_battle"))


def _infight_outcome(state: State, battle: Battle, outcome: str, events: Events) -> None:
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
        kill_together(state, [battle.base, battle.opponent], "相打ち", events)
    push(state, Step("infight_after_check"), Step("end_battle"))


# --- group dice after the battle -----------------------------------------------------------------------
# Member lists use the thread's view: a mastermind that faked its death in this battle has left its group
# and must not be numbered again for the next drop-out.


def _sides(battle: Battle) -> tuple[list[str], list[str]]:
    """(winners, losers) as they stood when the battle began."""
    if battle.winner == "base":
        return battle.base_side, battle.opponent_side
    return battle.opponent_side, battle.base_side


def _group_win_request(state: State, step: Step) -> DieRequest:
    winners, _ = _sides(_battle(state))
    living = [m for m in winners if is_publicly_alive(state, m)]
    return make_request(
        state,
        GROUP_DROPOUT_CHECK,
        step,
        subject=f"勝利した団体：{_side_text(state, living)}",
        reason="団体行動組が勝利したため、脱落者の有無を判定します",
    )


def _group_win_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    outcome = GROUP_DROPOUT_CHECK.outcome(faces[0])
    if faces[0] == 1:
        push(state, Step("win_count"))
    else:
        events.append(Said("勝利した団体に脱落者なし"))
    return outcome


def _win_count_limits(state: State) -> tuple[list[str], int, int]:
    battle = _battle(state)
    winners, losers = _sides(battle)
    living = [m for m in winners if is_publicly_alive(state, m)]
    loser_dead = sum(1 for m in battle.dead if m in losers)
    return living, loser_dead, max(1, min(loser_dead, len(living) - 1))


def _win_count_request(state: State, step: Step) -> DieRequest:
    living, loser_dead, cap = _win_count_limits(state)
    table = count_table(
        "win_count",
        "＜団体用＞脱落人数ダイス",
        1,
        cap,
        f"敗北者側の脱落{loser_dead}人と同じか少なく、勝者側は最低一人残る",
    )
    return make_request(
        state,
        table,
        step,
        subject=f"勝利した団体：{_side_text(state, living)}",
        reason="勝利した団体の脱落者の人数を決めます",
    )


def _win_count_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    living, _, _ = _win_count_limits(state)
    push(state, Step("pick", {"candidates": living, "count": faces[0], "cause": "団体勝利時の脱落"}))
    return f"{faces[0]}人"


def _pick_state(state: State, step: Step) -> tuple[list[str], int]:
    candidates = [m for m in step.data["candidates"] if is_publicly_alive(state, m)]
    return candidates, min(step.data["count"], len(candidates))


def _pick_request(state: State, step: Step) -> DieRequest:
    candidates, count = _pick_state(state, step)
    labels = tuple(shown(state, m) for m in candidates)
    if count >= len(candidates):
        table = Table("pick", "脱落者決定ダイス", 1, (Face(1, 1, "全員", "残り全員が脱落"),))
    else:
        table = pick_table("pick", "脱落者決定ダイス", labels)
    return make_request(
        state,
        table,
        step,
        subject=f"あと{count}人（{step.data['cause']}）",
        reason="メンバーに番号を割り振り、ダイスで脱落者を決めます",
    )


def _pick_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    candidates, count = _pick_state(state, step)
    if count >= len(candidates):
        for name in candidates:
            kill(state, name, step.data["cause"], events)
        return "全員脱落"
    chosen = candidates[faces[0] - 1]
    label = quoted(state, chosen)
    kill(state, chosen, step.data["cause"], events)
    if count > 1:
        push(
            state,
            Step(
                "pick",
                {**step.data, "candidates": [m for m in candidates if m != chosen], "count": count - 1},
            ),
        )
    return label


def _loss_count_request(state: State, step: Step) -> DieRequest:
    members = [m for m in step.data["members"] if is_publicly_alive(state, m)]
    table = count_table(
        "loss_count",
        "＜団体用＞敗北時脱落人数ダイス",
        0,
        len(members),
        "選択された者は確定で脱落、残りのメンバーの脱落人数",
    )
    return make_request(
        state,
        table,
        step,
        subject=f"残りのメンバー：{_side_text(state, members)}",
        reason="団体行動組が敗北したため、残りのメンバーの脱落人数を決めます",
    )


def _loss_count_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    members = [m for m in step.data["members"] if is_publicly_alive(state, m)]
    count = faces[0] - 1
    if count:
        push(state, Step("pick", {"candidates": members, "count": count, "cause": "団体敗北時の脱落"}))
    else:
        events.append(Said("残りのメンバーは全員生き延びた"))
    return f"{count}人"


def _pair_request(state: State, step: Step) -> DieRequest:
    partner = step.data["partner"]
    return make_request(
        state,
        PAIR_AFTER_LOSS,
        step,
        base=shown(state, partner),
        reason="二人組が敗北したため、死亡確定していない相方の運命を決めます",
    )


def _pair_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    battle = _battle(state)
    partner = step.data["partner"]
    outcome = PAIR_AFTER_LOSS.outcome(faces[0])
    winners, _ = _sides(battle)
    if outcome == "死亡":
        kill(state, partner, "二人組の敗北", events)
    elif outcome == ALLY:
        if any(is_hidden_mastermind(state, w) for w in winners):
            _reroll(state, step, "「正体のわからない何者か」とは手を組めない", events)
            return f"{outcome}（振り直し）"
        bump(state, "pair_betrayals")
        battle.joins.append(partner)
        events.append(Said(f"{quoted(state, partner)}は勝者側と手を組むことに"))
    else:
        events.append(Said(f"{quoted(state, partner)}は生き延びた（単独行動に）"))
    return outcome


def _joins(state: State, step: Step, events: Events) -> None:
    battle = _battle(state)
    winners = [m for m in _sides(battle)[0] if is_publicly_alive(state, m)]
    for partner in battle.joins:
        if winners and is_publicly_alive(state, partner):
            ally(state, winners[0], partner, events)


def _escape_request(state: State, step: Step) -> DieRequest:
    fleeing = [m for m in _battle(state).base_side if is_publicly_alive(state, m)]
    return make_request(
        state,
        GROUP_ESCAPE_CHECK,
        step,
        subject=f"逃走する団体：{_side_text(state, fleeing)}",
        reason="団体で逃走したため、犠牲が出たかを判定します（成功で脱落者ゼロ）",
    )


def _escape_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    outcome = GROUP_ESCAPE_CHECK.outcome(faces[0])
    if outcome == SUCCESS:
        events.append(Said("団体は無事に逃げ延びた（脱落者なし）"))
    else:
        bump(state, "escape_failures")
        push(state, Step("escape_count"))
    return outcome


def _escape_count_request(state: State, step: Step) -> DieRequest:
    fleeing = [m for m in _battle(state).base_side if is_publicly_alive(state, m)]
    table = count_table(
        "escape_count",
        "＜団体用＞逃走失敗時脱落人数ダイス",
        1,
        len(fleeing),
        "逃走を選択した者も含めて数える",
    )
    return make_request(
        state,
        table,
        step,
        subject=f"逃走した団体：{_side_text(state, fleeing)}",
        reason="逃走に失敗したため、脱落者の人数を決めます",
    )


def _escape_count_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    fleeing = [m for m in _battle(state).base_side if is_publicly_alive(state, m)]
    push(state, Step("pick", {"candidates": fleeing, "count": faces[0], "cause": "逃走失敗"}))
    return f"{faces[0]}人"


# --- infighting ------------------------------------------------------------------------------------------


def _infight_request(state: State, step: Step) -> DieRequest:
    battle = _battle(state)
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
    group = _battle(state).group
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


# --- (4) after the battle ---------------------------------------------------------------------------------


def _end_battle(state: State, step: Step, events: Events) -> None:
    battle = _battle(state)
    fallen = state.eliminated[battle.mark :]
    steps = [] if battle.kind == "final" else revival_steps(state, fallen, events)
    push(state, *steps, Step("after_battle"))


def _after_battle(state: State, step: Step, events: Events) -> None:
    battle = _battle(state)
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
        finish(state, battle.final_result, winners, "", events)
    elif _tag(state):
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


def _setup_done(state: State, step: Step, events: Events) -> None:
    state.setup_done = True
    state.die_index = 0
    if _tag(state):
        state.table = list(state.teams)
    else:
        state.table = [p.name for p in state.roster if is_alive(state, p.name)]
    if state.options.mastermind:
        events.append(Said("黒幕陣営は非公開のダイスで決定しました（正体は決戦まで明かされません）"))
    if narrating(events):
        events.append(entrants(state))
    push(state, Step("select"))


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
    "select": (_select_request, _select_apply),
    "select_opponent": (_opponent_request, _opponent_apply),
    "policy": (_policy_request, _policy_apply),
    "surprise": (_surprise_request, _surprise_apply),
    "battle": (_battle_request, _battle_apply),
    "infight": (_infight_request, _infight_apply),
    "infight_after": (_infight_after_request, _infight_after_apply),
    "group_win_check": (_group_win_request, _group_win_apply),
    "win_count": (_win_count_request, _win_count_apply),
    "pick": (_pick_request, _pick_apply),
    "loss_count": (_loss_count_request, _loss_count_apply),
    "pair_after_loss": (_pair_request, _pair_apply),
    "escape_check": (_escape_request, _escape_apply),
    "escape_count": (_escape_count_request, _escape_count_apply),
    **SPECIAL_DIE,
}
AUTO_STEPS: dict[str, AutoFn] = {
    "joins": _joins,
    "infight_after_check": _infight_after_check,
    "end_battle": _end_battle,
    "after_battle": _after_battle,
    "setup_done": _setup_done,
    **SPECIAL_AUTO,
}
