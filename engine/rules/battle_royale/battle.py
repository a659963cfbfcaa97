"""One battle of the 都道府県バトロワ: the policy die and the surprise check, the battle table the sizes
and the surprise call for (with the reason the request states), and what the battle die's outcome sets
going: the loser's fall and the group dice of a win or loss, an escape, an alliance, a mutual kill.
Infighting's outcomes are `infighting.py`'s, the group dice `group_dice.py`'s.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    Events,
    RequestFn,
    ally,
    current_battle,
    kill,
    kill_together,
    make_request,
    push,
    reroll,
    side_text,
    would_leave_nobody,
)
from engine.rules.battle_royale.events import DieRequest, Said
from engine.rules.battle_royale.infighting import infight_outcome
from engine.rules.battle_royale.season_rules import tag_ally, tag_can_ally, tag_defeat
from engine.rules.battle_royale.state import (
    Battle,
    State,
    Step,
    bump,
    entry_label,
    is_hidden_mastermind,
    is_publicly_alive,
)
from engine.rules.battle_royale.tables import (
    ALLY,
    ESCAPE,
    FAILURE,
    GROUP_SURPRISE_BIGGER,
    LOSE,
    MUTUAL,
    NORMAL,
    POLICY,
    SURPRISE,
    SURPRISE_CHECK,
    WIN,
    Table,
    battle_table,
)
from engine.rules.battle_royale.tag_mutual import tag_mutual_certain_wipe, tag_mutual_defeat

# --- (2) policy and surprise ---------------------------------------------------------------------------


def _base_label(state: State) -> str:
    return entry_label(state, current_battle(state).base)


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
    battle = current_battle(state)
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
    battle = current_battle(state)
    if battle.kind == "infight":
        return NORMAL
    if _group_surprise_between_equals(state, battle):
        return GROUP_SURPRISE_BIGGER
    return battle_table(battle.surprise, len(battle.base_side), len(battle.opponent_side))


def _group_surprise_between_equals(state: State, battle: Battle) -> bool:
    """surprise_equal_groups = "group": 「団体者が奇襲を成功した場合」 read as applying to equal groups too."""
    sizes = len(battle.base_side), len(battle.opponent_side)
    successful = battle.surprise and not battle.base_moved
    return state.options.surprise_equal_groups == "group" and successful and sizes[0] == sizes[1] >= 2


def _size_text(state: State, members: list[str], key: str) -> str:
    if state.options.tag_match:
        return f"{len(members)}人"
    gid = state.group_of.get(key)
    return f"団体{gid}・{len(members)}人" if gid and len(members) > 1 else "単独"


def _battle_reason(state: State, table: Table) -> str:
    battle = current_battle(state)
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
    if _group_surprise_between_equals(state, battle):
        size = "団体者の奇襲成功のため勝利＋1の団体戦用の表（surprise_equal_groups = group）"
    elif base_size == opp_size:
        size = "人数が同じなので通常の表" if base_size == 1 else "団体同士で同数なので通常の表"
    elif base_size > opp_size:
        size = "基準側の人数が多い為、勝利＋1の団体戦用の表"
    else:
        size = "基準側の人数が少ない為、敗北＋1の団体戦用の表"
    return f"{sides}。{how}、{size}"


def _battle_request(state: State, step: Step) -> DieRequest:
    table = current_battle_table(state)
    return make_request(state, table, step, base=_base_label(state), reason=_battle_reason(state, table))


def _battle_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    battle = current_battle(state)
    outcome = req.table.outcome(faces[0])
    fighters = mutual_victims(state, battle)
    if outcome == MUTUAL and would_leave_nobody(state, fighters):
        return _mutual_of_the_last(state, battle, step, events)
    if outcome == ALLY and battle.kind == "battle":
        if any(is_hidden_mastermind(state, m) for m in fighters):
            reroll(state, step, "「正体のわからない何者か」とは手を組めない", events)
            return f"{outcome}（振り直し）"
        if state.options.tag_match and not tag_can_ally(battle):
            if state.options.tag_ally_inapplicable == "reroll":
                reroll(state, step, "タッグマッチの「手を組む」は一人生存者が戦う時のみ有効な", events)
                return f"{outcome}（振り直し）"
            events.append(Said("タッグマッチの「手を組む」は一人生存者が戦う時のみ有効：逃走として扱います"))
            outcome = ESCAPE
    battle.outcome = outcome
    if battle.kind == "infight":
        infight_outcome(state, battle, outcome, events)
    elif outcome in (WIN, LOSE):
        _decide(state, battle, "base" if outcome == WIN else "opponent", events)
    elif outcome == ESCAPE:
        _escape(state, battle, events)
    elif outcome == ALLY:
        if state.options.tag_match:
            tag_ally(state, battle, events)
        else:
            ally(state, battle.base, battle.opponent, events)
        push(state, Step("end_battle"))
    else:
        bump(state, "mutual_kills")
        if state.options.tag_match:
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


def mutual_victims(state: State, battle: Battle) -> list[str]:
    """Who a 相打ち takes: both sides — in an infight the two fighters, or the whole group when
    infight_mutual = "group" (「敵味方共に団体で行動している者も含め脱落」 read for infights too)."""
    if battle.kind == "infight" and state.options.infight_mutual == "group":
        return [m for m in state.groups.get(battle.group, []) if is_publicly_alive(state, m)]
    return battle.base_side + battle.opponent_side


def _mutual_of_the_last(state: State, battle: Battle, step: Step, events: Events) -> str:
    """相打ち of the last ones standing: in a tag match both teams take their defeat (a survivor may
    win); otherwise no one would be left, and the die is rolled again."""
    if state.options.tag_match and not tag_mutual_certain_wipe(state, battle):
        battle.outcome = MUTUAL
        bump(state, "mutual_kills")
        push(state, *tag_mutual_defeat(state, battle, step))
        return MUTUAL
    reroll(state, step, "相打ちでは誰も残らない", events)
    return f"{MUTUAL}（振り直し）"


def _decide(state: State, battle: Battle, winner: str, events: Events) -> None:
    """勝利/敗北: the losing side first (the selected one falls, then the rest by dice), then the winning
    group's drop-out dice, then anyone who chose to join the winners."""
    battle.winner = winner
    loser_key = battle.opponent if winner == "base" else battle.base
    loser_side = battle.opponent_side if winner == "base" else battle.base_side
    winner_side = battle.base_side if winner == "base" else battle.opponent_side
    steps: list[Step] = []
    if state.options.tag_match:
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
    if len(fleeing) >= 2 and not state.options.tag_match:
        events.append(Said(f"{side_text(state, fleeing)}は団体で逃走を図る"))
        push(state, Step("escape_check"), Step("end_battle"))
        return
    events.append(Said(f"『{entry_label(state, battle.base)}』は逃走した（脱落者なし）"))
    push(state, Step("end_battle"))


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    "policy": (_policy_request, _policy_apply),
    "surprise": (_surprise_request, _surprise_apply),
    "battle": (_battle_request, _battle_apply),
}
