"""タッグマッチの相打ち between the last two teams: 「相打ち…双方が敗北処理を行う」. Each team takes its
defeat — a lone member falls, a team of two or more rolls 【タッグ敗北後ダイス】 (一人生存／全滅) — and the
deaths are settled only once both fates are known: if someone survives, the game goes on (and a
survivor may win); only when both rolls leave no one is the battle die rolled again.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import ApplyFn, AutoFn, Events, RequestFn, kill, push, reroll
from engine.rules.battle_royale.events import DieRequest
from engine.rules.battle_royale.season_rules import tag_loss_request
from engine.rules.battle_royale.state import Battle, State, Step, bump
from engine.rules.battle_royale.tables import TAG_LOSS

WIPED, ONE_LEFT = "全滅", "一人生存"


def tag_mutual_certain_wipe(state: State, battle: Battle) -> bool:
    """Both teams are lone members: their defeat leaves no one, whatever is rolled."""
    return all(len(state.teams.get(team, [])) <= 1 for team in (battle.base, battle.opponent))


def tag_mutual_defeat(state: State, battle: Battle, battle_step: Step) -> list[Step]:
    """The steps of both defeats, then the settling (which may roll `battle_step` again)."""
    teams = [battle.base, battle.opponent]
    rolls = [Step("tag_mutual_loss", {"team": team}) for team in teams if len(state.teams.get(team, [])) > 1]
    settle = {"teams": teams, "fates": {}, "battle": {"kind": battle_step.kind, "data": battle_step.data}}
    return [*rolls, Step("tag_mutual_settle", settle)]


def _loss_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    outcome = TAG_LOSS.outcome(faces[0])
    settle = next(pending for pending in state.pending if pending.kind == "tag_mutual_settle")
    settle.data["fates"][step.data["team"]] = outcome  # settled with the other team's fate
    return outcome


def _settle(state: State, step: Step, events: Events) -> None:
    teams, fates = step.data["teams"], step.data["fates"]
    if all(fates.get(team, WIPED) == WIPED for team in teams):
        again = step.data["battle"]
        reroll(state, Step(again["kind"], again["data"]), "双方のチームが全滅して誰も残らない", events)
        return
    picks: list[Step] = []
    for team in teams:
        members = list(state.teams.get(team, []))
        if fates.get(team, WIPED) == ONE_LEFT:
            picks.append(Step("tag_dead" if len(members) == 2 else "tag_survivor", {"team": team}))
        elif len(members) == 1:
            kill(state, members[0], "敗北", events)
        else:
            bump(state, "tag_wipes")
            for member in members:
                kill(state, member, "チーム全滅", events)
    push(state, *picks, Step("end_battle"))


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {"tag_mutual_loss": (tag_loss_request, _loss_apply)}
AUTO_STEPS: dict[str, AutoFn] = {"tag_mutual_settle": _settle}
