"""The group dice that follow a battle of the 都道府県バトロワ: whether the winning group loses members and
how many, the fate of the losing group's other members (the pair's partner, or a count), the group
escape check and its count, the pick die that names who falls, and the losers who join the winners.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    AutoFn,
    Events,
    RequestFn,
    ally,
    current_battle,
    kill,
    make_request,
    push,
    reroll,
    side_text,
)
from engine.rules.battle_royale.events import DieRequest, Said
from engine.rules.battle_royale.state import (
    Battle,
    State,
    Step,
    bump,
    is_hidden_mastermind,
    is_publicly_alive,
    quoted,
    shown,
)
from engine.rules.battle_royale.tables import (
    ALLY,
    GROUP_DROPOUT_CHECK,
    GROUP_ESCAPE_CHECK,
    PAIR_AFTER_LOSS,
    SUCCESS,
    Face,
    Table,
    count_table,
    pick_table,
)

# Member lists use the thread's view: a mastermind that faked its death in this battle has left its group
# and must not be numbered again for the next drop-out.


def _sides(battle: Battle) -> tuple[list[str], list[str]]:
    """(winners, losers) as they stood when the battle began."""
    if battle.winner == "base":
        return battle.base_side, battle.opponent_side
    return battle.opponent_side, battle.base_side


def _group_win_request(state: State, step: Step) -> DieRequest:
    winners, _ = _sides(current_battle(state))
    living = [m for m in winners if is_publicly_alive(state, m)]
    return make_request(
        state,
        GROUP_DROPOUT_CHECK,
        step,
        subject=f"勝利した団体：{side_text(state, living)}",
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
    battle = current_battle(state)
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
        subject=f"勝利した団体：{side_text(state, living)}",
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
        subject=f"残りのメンバー：{side_text(state, members)}",
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
    battle = current_battle(state)
    partner = step.data["partner"]
    outcome = PAIR_AFTER_LOSS.outcome(faces[0])
    winners, _ = _sides(battle)
    if outcome == "死亡":
        kill(state, partner, "二人組の敗北", events)
    elif outcome == ALLY:
        if any(is_hidden_mastermind(state, w) for w in winners):
            reroll(state, step, "「正体のわからない何者か」とは手を組めない", events)
            return f"{outcome}（振り直し）"
        bump(state, "pair_betrayals")
        battle.joins.append(partner)
        events.append(Said(f"{quoted(state, partner)}は勝者側と手を組むことに"))
    else:
        events.append(Said(f"{quoted(state, partner)}は生き延びた（単独行動に）"))
    return outcome


def _joins(state: State, step: Step, events: Events) -> None:
    battle = current_battle(state)
    winners = [m for m in _sides(battle)[0] if is_publicly_alive(state, m)]
    for partner in battle.joins:
        if winners and is_publicly_alive(state, partner):
            ally(state, winners[0], partner, events)


def _escape_request(state: State, step: Step) -> DieRequest:
    fleeing = [m for m in current_battle(state).base_side if is_publicly_alive(state, m)]
    return make_request(
        state,
        GROUP_ESCAPE_CHECK,
        step,
        subject=f"逃走する団体：{side_text(state, fleeing)}",
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
    fleeing = [m for m in current_battle(state).base_side if is_publicly_alive(state, m)]
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
        subject=f"逃走した団体：{side_text(state, fleeing)}",
        reason="逃走に失敗したため、脱落者の人数を決めます",
    )


def _escape_count_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    fleeing = [m for m in current_battle(state).base_side if is_publicly_alive(state, m)]
    push(state, Step("pick", {"candidates": fleeing, "count": faces[0], "cause": "逃走失敗"}))
    return f"{faces[0]}人"


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    "group_win_check": (_group_win_request, _group_win_apply),
    "win_count": (_win_count_request, _win_count_apply),
    "pick": (_pick_request, _pick_apply),
    "loss_count": (_loss_count_request, _loss_count_apply),
    "pair_after_loss": (_pair_request, _pair_apply),
    "escape_check": (_escape_request, _escape_apply),
    "escape_count": (_escape_count_request, _escape_count_apply),
}
AUTO_STEPS: dict[str, AutoFn] = {"joins": _joins}
