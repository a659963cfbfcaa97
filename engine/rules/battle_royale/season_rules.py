"""The seasons' special rules of the 都道府県バトロワ: set-up dice (地区代表, タッグ結成, 黒幕陣営), the
mastermind's lives and final battle, 地区復活ダイス, and the タッグマッチ defeat dice.

Each die step is a (request, apply) pair registered in `DIE_STEPS`; automatic transitions in `AUTO_STEPS`.
"""

from __future__ import annotations

from engine.rules.battle_royale.common_steps import (
    ApplyFn,
    AutoFn,
    Events,
    RequestFn,
    finish,
    kill,
    leave_group,
    lose_life,
    make_request,
    push,
)
from engine.rules.battle_royale.events import BattleStart, DieRequest, Revealed, Said, Secret
from engine.rules.battle_royale.state import (
    ALIVE,
    RESERVE,
    UNKNOWN,
    Battle,
    Options,
    State,
    Step,
    bump,
    contenders,
    is_alive,
    is_publicly_alive,
    prefecture,
    team_name,
)
from engine.rules.battle_royale.tables import (
    ALLY,
    ESCAPE,
    LOSE,
    MUTUAL,
    REVIVAL,
    SUCCESS,
    TAG_LOSS,
    WIN,
    Face,
    Table,
    camp_table,
    final_table,
    pick_table,
)


def regions(state: State) -> list[str]:
    seen: list[str] = []
    for pref in state.roster:
        if pref.region not in seen:
            seen.append(pref.region)
    return seen


def setup_steps(state: State) -> list[Step]:
    """The dice rolled before the first battle, in order, then the opening."""
    steps: list[Step] = []
    if state.options.revival:
        steps += [Step("rep_pick", {"region": region}) for region in regions(state)]
    if state.options.tag_match:
        steps.append(Step("tag_pair"))
    if state.options.mastermind:
        steps.append(Step("mm_pick"))
    steps.append(Step("setup_done"))
    return steps


# --- 地区代表 (revival seasons) ------------------------------------------------------------------------


def _rep_state(state: State, region: str) -> tuple[list[str], int]:
    members = [p.name for p in state.roster if p.region == region]
    chosen = sum(1 for m in members if state.status[m] == ALIVE)
    reserve = [m for m in members if state.status[m] == RESERVE]
    need = min(state.options.revival_representatives, len(members)) - chosen
    return reserve, need


def _rep_request(state: State, step: Step) -> DieRequest:
    region = step.data["region"]
    reserve, need = _rep_state(state, region)
    table = (
        Table("rep_pick", "地区代表選出ダイス", 1, (Face(1, 1, "全員", "全員が代表"),))
        if len(reserve) <= need
        else pick_table("rep_pick", "地区代表選出ダイス", tuple(reserve))
    )
    return make_request(
        state,
        table,
        step,
        subject=f"{region}地区（あと{need}名）",
        reason=f"{region}地区の代表者を決めます（各地区{state.options.revival_representatives}名）",
    )


def _rep_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    region = step.data["region"]
    reserve, need = _rep_state(state, region)
    chosen = reserve if len(reserve) <= need else [reserve[faces[0] - 1]]
    for name in chosen:
        state.status[name] = ALIVE
    if need - len(chosen) > 0 and len(reserve) > len(chosen):
        push(state, Step("rep_pick", {"region": region}))
    return "".join(f"『{name}』" for name in chosen) + "が代表に"


# --- タッグ結成 -------------------------------------------------------------------------------------


def _unpaired(state: State) -> list[str]:
    return [p.name for p in state.roster if state.status[p.name] == ALIVE and p.name not in state.team_of]


def _pair_request(state: State, step: Step) -> DieRequest:
    first, *others = _unpaired(state)
    return make_request(
        state,
        pick_table("tag_pair", "タッグ結成ダイス", tuple(others)),
        step,
        subject=f"『{first}』の相方",
        reason="参加都道府県からダイスでランダムに二人一組のチームを作ります",
    )


def _form_team(state: State, members: list[str]) -> str:
    team = str(len(state.teams) + 1)
    state.teams[team] = list(members)
    for member in members:
        state.team_of[member] = team
    return team


def _pair_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    first, *others = _unpaired(state)
    partner = others[faces[0] - 1]
    team = _form_team(state, [first, partner])
    rest = _unpaired(state)
    if len(rest) >= 2:
        push(state, Step("tag_pair"))
    elif rest:
        lone = _form_team(state, rest)
        events.append(Said(f"余った『{rest[0]}』は一人で{team_name(state, lone)}になります"))
    return f"『{first}』『{partner}』→ {team_name(state, team)}"


# --- 黒幕陣営 --------------------------------------------------------------------------------------------


def _participants(state: State) -> list[str]:
    return [p.name for p in state.roster if state.status[p.name] == ALIVE]


def _mm_pick_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state,
        pick_table("mm_pick", "黒幕決定ダイス", tuple(_participants(state))),
        step,
        reason="黒幕を参加都道府県からダイスで一人選びます（非公開）",
        secret=True,
    )


def _mm_pick_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    name = _participants(state)[faces[0] - 1]
    assert state.mastermind is not None
    state.mastermind.name = name
    events.append(Secret(f"黒幕は『{name}』（残機{state.mastermind.lives}）"))
    push(state, Step("mm_camp"))
    return f"『{name}』"


def _mm_camp_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state,
        camp_table(state.options.mastermind_camp_die),
        step,
        reason="黒幕陣営の人数（黒幕を含む）を決めます（非公開）",
        secret=True,
    )


def _mm_camp_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    mm = state.mastermind
    assert mm is not None
    mm.camp_size = faces[0]
    # At least one prefecture outside the camp must remain, or there is nobody to fight.
    wanted = min(faces[0] - 1, len(_participants(state)) - 2)
    events.append(Secret(f"黒幕陣営は{faces[0]}人 → 協力者{wanted}人"))
    push(state, *[Step("mm_collab") for _ in range(wanted)])
    return f"{faces[0]}人"


def _collab_candidates(state: State) -> list[str]:
    mm = state.mastermind
    assert mm is not None
    return [n for n in _participants(state) if n != mm.name and n not in mm.collaborators]


def _mm_collab_request(state: State, step: Step) -> DieRequest:
    return make_request(
        state,
        pick_table("mm_collab", "協力者決定ダイス", tuple(_collab_candidates(state))),
        step,
        reason="黒幕の協力者をダイスで決めます（非公開）",
        secret=True,
    )


def _mm_collab_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    name = _collab_candidates(state)[faces[0] - 1]
    assert state.mastermind is not None
    state.mastermind.collaborators.append(name)
    events.append(Secret(f"黒幕の協力者に『{name}』"))
    return f"『{name}』"


# --- the mastermind in play ------------------------------------------------------------------------


def designate(state: State, keys: set[str], events: Events) -> bool:
    """黒幕へのダイスの指定: each roll naming the mastermind costs a life. True when that was the last one
    (the final battle then replaces the battle the roll was choosing)."""
    mm = state.mastermind
    if mm is None or mm.defeated or mm.name not in keys:
        return False
    bump(state, "mastermind_designations")
    lose_life(state, "ダイスで指定された", events)
    return mm.lives <= 0


def final_due(state: State) -> bool:
    mm = state.mastermind
    return (
        mm is not None
        and bool(mm.name)
        and not mm.defeated
        and is_alive(state, mm.name)
        and (mm.lives <= 0 or len(contenders(state)) <= 1)
    )


def _final_sides(state: State) -> tuple[list[str], list[str]]:
    """Remaining prefectures split into the mastermind's living collaborators and everyone else."""
    mm = state.mastermind
    assert mm is not None
    remaining = contenders(state)
    allies = [n for n in remaining if n in mm.collaborators]
    return allies, [n for n in remaining if n not in allies]


def _final_start(state: State, step: Step, events: Events) -> None:
    mm = state.mastermind
    assert mm is not None
    why = "黒幕の残機がゼロになった" if mm.lives <= 0 else "黒幕を除く最後の一人が決まった"
    if is_publicly_alive(state, mm.name):
        leave_group(state, mm.name, events, quiet=True)
    mm.revealed = True
    collaborators = tuple(n for n in mm.collaborators if is_alive(state, n))
    events.append(Revealed(mm.name, collaborators, mm.lives, why))
    bump(state, "final_battles")
    allies, enemies = _final_sides(state)
    if not enemies:
        events.append(Said("黒幕に立ち向かう都道府県は残っていない……"))
        finish(state, "mastermind", [mm.name, *collaborators], "", events)
        return
    battle = Battle(
        state.battles + 1,
        "final",
        mm.name,
        enemies[0],
        [mm.name, *allies],
        enemies,
        mark=len(state.eliminated),
    )
    state.battle = battle
    events.append(
        BattleStart(
            battle.number,
            "final",
            mm.name,
            "、".join(f"『{n}』" for n in enemies),
            tuple(battle.base_side),
            tuple(enemies),
        )
    )
    push(state, Step("final"))


def _final_faces(state: State) -> tuple[int, int]:
    """(敗北 faces, 勝利 faces) added to the plain table: one 敗北 per remaining prefecture (collaborators
    too, unless `collaborators_count_as_defeats` is off), one 勝利 per living collaborator (the seed's ？)."""
    allies, enemies = _final_sides(state)
    options = state.options
    defeats = len(enemies) + (len(allies) if options.mastermind_collaborators_count_as_defeats else 0)
    wins = len(allies) if options.mastermind_collaborators_add_wins else 0
    return defeats, wins


def _final_request(state: State, step: Step) -> DieRequest:
    assert state.battle is not None and state.mastermind is not None
    allies, enemies = _final_sides(state)
    defeats, wins = _final_faces(state)
    subject = "黒幕 vs " + "".join(f"『{n}』" for n in enemies)
    if allies:
        subject += "（協力者：" + "".join(f"『{n}』" for n in allies) + "）"
    return make_request(
        state,
        final_table(defeats, wins),
        step,
        base=state.mastermind.name,
        subject=subject,
        reason="黒幕との決戦：基準は黒幕、残っている都道府県の数だけ「敗北」を追加"
        + ("、生き残りの協力者の数だけ「勝利」を追加" if wins else ""),
    )


def _final_reroll(options: Options, outcome: str) -> bool:
    """The outcomes the final rolls again (each a reading the GM chooses in [mastermind])."""
    return (
        (outcome == ESCAPE and options.mastermind_final_escape == "reroll")
        or (outcome == MUTUAL and options.mastermind_final_mutual == "reroll")
        or (outcome == ALLY and options.mastermind_final_alliance == "reroll")
    )


def _final_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    battle, mm = state.battle, state.mastermind
    assert battle is not None and mm is not None
    outcome = req.table.outcome(faces[0])
    _, enemies = _final_sides(state)
    if _final_reroll(state.options, outcome):
        bump(state, "rerolls")
        why = {ESCAPE: "決戦に逃げ場はない", MUTUAL: "相打ちでは誰も残らない", ALLY: "決戦では手を組めない"}[
            outcome
        ]
        events.append(Said(f"{why}ため、決戦ダイスを振り直し"))
        push(state, Step("final"))
        return f"{outcome}（振り直し）"
    battle.outcome = outcome
    if outcome == WIN:
        for name in enemies:
            kill(state, name, "決戦で黒幕に敗北", events)
        battle.final_result = "mastermind"
    elif outcome == LOSE:
        kill(state, mm.name, "final", events)
        mm.defeated = True
        events.append(Said(f"黒幕『{mm.name}』、ついに倒れる！"))
    elif outcome == ESCAPE:  # final_escape = "mastermind_flees"
        kill(state, mm.name, "final", events)
        mm.defeated = True
        events.append(Said(f"黒幕『{mm.name}』は逃げ去った（脱落者なし）――残った都道府県の戦いは続く"))
    elif outcome == MUTUAL:  # final_mutual = "all_fall"
        kill(state, mm.name, "final", events)
        mm.defeated = True
        for name in enemies:
            kill(state, name, "決戦で相打ち", events)
        battle.final_result = "fallen"
        events.append(Said(f"黒幕『{mm.name}』と残った都道府県は相打ちで共倒れ"))
    else:
        battle.final_result = "reconciled"
        events.append(Said(f"黒幕『{mm.name}』と残った都道府県は手を取り合った――和解"))
    push(state, Step("end_battle"))
    return outcome


# --- 地区復活ダイス --------------------------------------------------------------------------------------


def revival_steps(state: State, fallen: list[str], events: Events) -> list[Step]:
    """A region whose last representative has just fallen rolls 地区復活ダイス (once it succeeded, never
    again). The thread's view counts: a mastermind faking its death triggers it like anyone."""
    if not state.options.revival:
        return []
    last_of: dict[str, str] = {}
    for name in fallen:
        last_of[prefecture(state, name).region] = name
    steps: list[Step] = []
    for region, slot in last_of.items():
        if region in state.revival_done:
            continue
        members = [p.name for p in state.roster if p.region == region]
        if any(is_publicly_alive(state, m) for m in members):
            continue
        if not any(state.status[m] == RESERVE for m in members):
            events.append(Said(f"{region}地区は全滅（復活できる都道府県が残っていない）"))
            continue
        steps.append(Step("revival", {"region": region, "slot": slot}))
    return steps


def _revival_request(state: State, step: Step) -> DieRequest:
    region = step.data["region"]
    return make_request(
        state,
        REVIVAL,
        step,
        subject=f"{region}地区（最後の代表『{step.data['slot']}』が脱落）",
        reason="地区代表が全員脱落したため地区復活ダイス（5のみ成功、一度成功した地区は以降なし）",
    )


def _revival_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    region = step.data["region"]
    outcome = REVIVAL.outcome(faces[0])
    if outcome == SUCCESS:
        state.revival_done.append(region)
        push(state, Step("revival_pick", dict(step.data)))
    else:
        bump(state, "revival_failures")
        events.append(Said(f"{region}地区の復活ならず"))
    return outcome


def _reserve(state: State, region: str) -> list[str]:
    return [p.name for p in state.roster if p.region == region and state.status[p.name] == RESERVE]


def _revival_pick_request(state: State, step: Step) -> DieRequest:
    region = step.data["region"]
    return make_request(
        state,
        pick_table("revival_pick", "地区復活者選出ダイス", tuple(_reserve(state, region))),
        step,
        subject=f"{region}地区",
        reason="脱落者以外のその地区の都道府県から一人を新規参加させます",
    )


def _revival_pick_apply(
    state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events
) -> str:
    region, slot = step.data["region"], step.data["slot"]
    name = _reserve(state, region)[faces[0] - 1]
    state.status[name] = ALIVE
    if slot in state.table:
        state.table[state.table.index(slot)] = name
    else:
        state.table.append(name)
    number = state.table.index(name) + 1
    if state.battle is not None:
        state.battle.revived.append(name)
    bump(state, "revivals")
    events.append(Said(f"『{name}』が{region}地区から新たに参戦！（{number}番）"))
    return f"『{name}』"


# --- タッグマッチ ---------------------------------------------------------------------------------------


def tag_defeat(state: State, team: str, events: Events) -> list[Step]:
    """A beaten team: a lone member falls; a pair or more rolls 一人生存 or 全滅."""
    members = list(state.teams.get(team, []))
    if len(members) == 1:
        kill(state, members[0], "敗北", events)
        return []
    return [Step("tag_loss", {"team": team})] if members else []


def tag_can_ally(battle: Battle) -> bool:
    return len(battle.base_side) == 1 or len(battle.opponent_side) == 1


def tag_ally(state: State, battle: Battle, events: Events) -> None:
    """手を組む in a tag match: the lone survivor joins the other team (two lone ones: the 基準's team)."""
    base, other = battle.base, battle.opponent
    mover, host = (
        (base, other) if len(battle.base_side) == 1 and len(battle.opponent_side) > 1 else (other, base)
    )
    for member in state.teams[mover]:
        state.teams[host].append(member)
        state.team_of[member] = host
    moved = "".join(f"『{m}』" for m in state.teams[mover])
    state.teams[mover] = []
    bump(state, "alliances")
    events.append(Said(f"{moved}が{team_name(state, host)}と手を組み合流した"))


def tag_loss_request(state: State, step: Step) -> DieRequest:
    team = step.data["team"]
    members = "".join(f"『{m}』" for m in state.teams[team])
    return make_request(
        state,
        TAG_LOSS,
        step,
        base=team_name(state, team),
        subject=members,
        reason="敗北したチームは一人生存か全滅かをダイスで決定",
    )


def _tag_loss_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    team = step.data["team"]
    outcome = TAG_LOSS.outcome(faces[0])
    if outcome == "全滅":
        bump(state, "tag_wipes")
        for member in list(state.teams[team]):
            kill(state, member, "チーム全滅", events)
    else:
        push(state, Step("tag_dead" if len(state.teams[team]) == 2 else "tag_survivor", {"team": team}))
    return outcome


def _tag_pick_request(state: State, step: Step) -> DieRequest:
    team = step.data["team"]
    members = tuple(state.teams[team])
    if step.kind == "tag_dead":
        table = pick_table("tag_dead", "タッグ死亡者決定ダイス", members)
        reason = "一人生存：死亡する者をダイスで決定"
    else:
        table = pick_table("tag_survivor", "タッグ生存者決定ダイス", members)
        reason = "一人生存：生き残る一人をダイスで決定"
    return make_request(state, table, step, base=team_name(state, team), reason=reason)


def _tag_pick_apply(state: State, step: Step, faces: tuple[int, ...], req: DieRequest, events: Events) -> str:
    members = list(state.teams[step.data["team"]])
    chosen = members[faces[0] - 1]
    doomed = [chosen] if step.kind == "tag_dead" else [m for m in members if m != chosen]
    for name in doomed:
        kill(state, name, "敗北チームの脱落", events)
    return f"『{chosen}』" + ("死亡" if step.kind == "tag_dead" else "生存")


DIE_STEPS: dict[str, tuple[RequestFn, ApplyFn]] = {
    "rep_pick": (_rep_request, _rep_apply),
    "tag_pair": (_pair_request, _pair_apply),
    "mm_pick": (_mm_pick_request, _mm_pick_apply),
    "mm_camp": (_mm_camp_request, _mm_camp_apply),
    "mm_collab": (_mm_collab_request, _mm_collab_apply),
    "final": (_final_request, _final_apply),
    "revival": (_revival_request, _revival_apply),
    "revival_pick": (_revival_pick_request, _revival_pick_apply),
    "tag_loss": (tag_loss_request, _tag_loss_apply),
    "tag_dead": (_tag_pick_request, _tag_pick_apply),
    "tag_survivor": (_tag_pick_request, _tag_pick_apply),
}
AUTO_STEPS: dict[str, AutoFn] = {"final_start": _final_start}

__all__ = [
    "AUTO_STEPS",
    "DIE_STEPS",
    "UNKNOWN",
    "designate",
    "final_due",
    "revival_steps",
    "setup_steps",
    "tag_ally",
    "tag_can_ally",
    "tag_defeat",
]
