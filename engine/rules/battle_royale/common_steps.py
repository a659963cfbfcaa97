"""Shared moves of the 都道府県バトロワ steps: eliminations (and the mastermind's faked death), groups
forming and breaking, renumbering the selection table, the step queue (with the battle under way and
rerolls), and the snapshots reports print.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import SupportsIndex

from engine.rules.battle_royale.events import (
    Died,
    DieRequest,
    Entrants,
    Event,
    GameOver,
    Renumbered,
    Said,
    Secret,
    Summary,
    SurvivorTable,
)
from engine.rules.battle_royale.state import (
    ALIVE,
    DEAD,
    UNKNOWN,
    Battle,
    Ending,
    State,
    Step,
    bump,
    contenders,
    entry_alive,
    entry_label,
    group_label,
    is_alive,
    is_hidden_mastermind,
    is_publicly_alive,
    quoted,
    shown,
    team_name,
)
from engine.rules.battle_royale.tables import Table

Events = list[Event]
RequestFn = Callable[[State, Step], DieRequest]
ApplyFn = Callable[[State, Step, tuple[int, ...], DieRequest, Events], str]
AutoFn = Callable[[State, Step, Events], None]


class Silent(list[Event]):
    """An events list that keeps nothing: simulations play the same steps without narration."""

    def append(self, item: Event) -> None:
        pass

    def insert(self, index: SupportsIndex, item: Event) -> None:
        pass


def narrating(events: Events) -> bool:
    """False in simulations: builders of large snapshots (survivor tables, summaries) may skip work."""
    return not isinstance(events, Silent)


class BattleRoyaleError(ValueError):
    """A roll or an input the rules cannot take (the message is Japanese, for players)."""


# --- the step queue ----------------------------------------------------------------------------------


def push(state: State, *steps: Step) -> None:
    """Put steps at the front of the queue, in the order given (sub-steps run before what was pending)."""
    state.pending[0:0] = steps


def make_request(
    state: State,
    table: Table,
    step: Step,
    *,
    base: str = "",
    subject: str = "",
    reason: str = "",
    secret: bool = False,
) -> DieRequest:
    phase = str(state.battles + 1) if state.setup_done else "setup"
    return DieRequest(table, base, subject, reason, f"br/{phase}/{state.die_index}", step.kind, secret)


def reroll(state: State, step: Step, why: str, events: Events) -> None:
    bump(state, "rerolls")
    events.append(Said(f"{why}ため、振り直し"))
    push(state, step)


def current_battle(state: State) -> Battle:
    if state.battle is None:
        raise BattleRoyaleError("進行状態が壊れています（戦闘中ではありません）")
    return state.battle


def side_text(state: State, members: list[str]) -> str:
    return "".join(quoted(state, m) for m in members)


# --- eliminations ------------------------------------------------------------------------------------


def kill(state: State, name: str, cause: str, events: Events) -> None:
    """Eliminate a participant. The mastermind (until its final battle) only fakes its death: the thread
    sees it fall, but it stays in play as 「正体のわからない何者か」 and may lose a life."""
    kill_together(state, [name], cause, events)


def kill_together(state: State, names: list[str], cause: str, events: Events) -> None:
    """Eliminate several at one stroke (相打ち): all fall before any leaves its group, so a group they
    shared is not said to go on with one of them just before that one falls too."""
    fallen = [name for name in names if _fall(state, name, cause, events)]
    # A mastermind faking its death stays alive underneath: it leaves first, so that it is never the one
    # a dissolving group is said to leave on its own.
    mm = state.mastermind
    for name in sorted(fallen, key=lambda name: mm is None or name != mm.name):
        _detach(state, name, events)


def _fall(state: State, name: str, cause: str, events: Events) -> bool:
    if not is_alive(state, name):
        return False
    if state.battle is not None:
        state.battle.dead.append(name)
    mm = state.mastermind
    label = shown(state, name)
    if mm is not None and mm.name == name and cause != "final":
        events.append(Died(name, label, cause, mm.hidden))
        if not mm.hidden:
            state.eliminated.append(name)
            mm.hidden = True
        bump(state, "mastermind_fake_deaths")
        events.append(Secret(f"黒幕『{name}』は死んだふりをして姿を隠した（表向きは脱落）"))
        if state.options.mastermind_death_costs_life:
            lose_life(state, "戦闘で倒された", events)
        return True
    events.append(Died(name, label, cause))
    state.status[name] = DEAD
    if not (mm is not None and mm.name == name and mm.hidden):
        state.eliminated.append(name)
    bump(state, "eliminations")
    return True


def finish(state: State, kind: str, winners: list[str], team: str, events: Events) -> None:
    """The game is over: `kind` is "winner" (one prefecture or one tag team), "mastermind", "reconciled"
    or "fallen" (the final's 相打ち: no winner)."""
    state.ending = Ending(kind, list(winners), team)
    state.pending = []
    events.append(GameOver(kind, tuple(winners), team, state.battles))


def lose_life(state: State, why: str, events: Events) -> None:
    mm = state.mastermind
    if mm is None or mm.lives <= 0:
        return
    mm.lives -= 1
    bump(state, "mastermind_lives_lost")
    events.append(Secret(f"黒幕『{mm.name}』の残機 −1（{why}）→ 残り{mm.lives}"))


def _detach(state: State, name: str, events: Events) -> None:
    leave_group(state, name, events, quiet=True)
    team = state.team_of.get(name)
    if team is not None and name in state.teams.get(team, []):
        state.teams[team].remove(name)


def would_leave_nobody(state: State, names: list[str]) -> bool:
    """Whether eliminating `names` would leave no prefecture to win (the mastermind does not count)."""
    doomed = set(names)
    return all(name in doomed for name in contenders(state))


# --- groups ------------------------------------------------------------------------------------------


def leave_group(state: State, name: str, events: Events, *, quiet: bool = False) -> None:
    """Take a member out of its group; a group left with one member is dissolved."""
    gid = state.group_of.pop(name, None)
    if gid is None:
        return
    members = state.groups[gid]
    members.remove(name)
    if not quiet:
        events.append(Said(f"{quoted(state, name)}は団体{gid}を抜けて単独行動に戻った"))
    if len(members) < 2:
        alone = any(is_alive(state, member) for member in members)
        dissolve(
            state, gid, events, f"団体{gid}は" + ("一人になったため解散" if alone else "全員脱落して消滅")
        )


def dissolve(state: State, gid: str, events: Events, why: str) -> None:
    members = state.groups.pop(gid, [])
    for member in members:
        state.group_of.pop(member, None)
    rest = "".join(quoted(state, m) for m in members if is_alive(state, m))
    events.append(Said(f"{why}{'（' + rest + 'は単独行動に）' if rest else ''}"))


def ally(state: State, first: str, second: str, events: Events) -> str:
    """手を組む: the two and everyone standing with them become one group (the first one's, if any)."""
    g1, g2 = state.group_of.get(first), state.group_of.get(second)
    if g1 is not None and g2 is not None:
        gid = g1
        for member in state.groups.pop(g2):
            state.groups[gid].append(member)
            state.group_of[member] = gid
    elif g1 is not None or g2 is not None:
        gid = g1 if g1 is not None else g2
        newcomer = second if g1 is not None else first
        state.groups[gid].append(newcomer)
        state.group_of[newcomer] = gid
    else:
        gid = str(state.next_group)
        state.next_group += 1
        state.groups[gid] = [first, second]
        state.group_of[first] = gid
        state.group_of[second] = gid
    bump(state, "alliances")
    events.append(
        Said(f"{quoted(state, first)}と{quoted(state, second)}が手を組んだ！ → {group_label(state, gid)}")
    )
    return gid


# --- the selection table -----------------------------------------------------------------------------


def renumber(state: State, why: str, events: Events) -> None:
    """都道府県表を作り直す: only what can still be picked, the hidden mastermind's slot last (so its
    old place in the order gives nothing away)."""
    keys = [key for key in state.table if entry_alive(state, key)]
    hidden = [key for key in keys if is_hidden_mastermind(state, key)]
    state.table = [key for key in keys if key not in hidden] + hidden
    if hidden and state.mastermind is not None:
        state.mastermind.slot_unknown = True
    state.dead_streak = 0
    bump(state, "renumberings")
    rows = tuple((n, entry_label(state, key)) for n, key in enumerate(state.table, start=1))
    events.append(Renumbered(rows, why))


def table_entries(state: State) -> tuple[str, ...]:
    """The selection table as the thread knows it: each number's entry, eliminated ones marked. The hidden
    mastermind's slot reads as its (publicly dead) name until a renumbering listed it as the unknown."""
    if state.options.tag_match and state.setup_done:
        return tuple(
            team_name(state, key) + ("" if state.teams.get(key) else "（消滅）") for key in state.table
        )
    status = state.status
    out = [key if status[key] == ALIVE else f"{key}（脱落）" for key in state.table]
    mm = state.mastermind
    if mm is not None and mm.hidden and not mm.revealed and mm.name in state.table:
        out[state.table.index(mm.name)] = UNKNOWN if mm.slot_unknown else f"{mm.name}（脱落）"
    return tuple(out)


# --- snapshots for reports ---------------------------------------------------------------------------


def group_lines(state: State) -> tuple[str, ...]:
    return tuple(
        f"団体{gid}：{''.join(quoted(state, m) for m in members)}" for gid, members in state.groups.items()
    )


def survivor_rows(state: State) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int]:
    """Rows of the 生き残り表 (current selection numbers), its header and the number still in the game."""
    rows: list[tuple[str, ...]] = []
    if state.options.tag_match and state.setup_done:
        for n, team in enumerate(state.table, start=1):
            members = state.teams.get(team, [])
            if members:
                rows.append((str(n), team_name(state, team), "".join(f"『{m}』" for m in members)))
        return tuple(rows), ("番号", "チーム", "メンバー"), sum(len(m) for m in state.teams.values())
    regions = {p.name: p.region for p in state.roster}
    for n, key in enumerate(state.table, start=1):
        if is_publicly_alive(state, key):
            gid = state.group_of.get(key)
            rows.append((str(n), key, f"団体{gid}" if gid else "単独", regions.get(key, "")))
    return tuple(rows), ("番号", "都道府県", "団体"), len(rows)


def survivor_table(state: State, fallen: tuple[str, ...], revived: tuple[str, ...]) -> SurvivorTable:
    rows, header, remaining = survivor_rows(state)
    return SurvivorTable(rows, header, group_lines(state), fallen, revived, remaining)


_SUMMARY_COUNTS = (
    ("escapes", "逃走"),
    ("alliances", "手を組む"),
    ("mutual_kills", "相打ち"),
    ("surprises", "奇襲"),
    ("surprise_failures", "奇襲失敗"),
    ("infights", "仲間割れ"),
    ("revivals", "地区復活"),
)


def summary(state: State) -> Summary:
    _, _, remaining = survivor_rows(state)
    counts = tuple(
        (label, state.counters.get(key, 0)) for key, label in _SUMMARY_COUNTS if state.counters.get(key, 0)
    )
    return Summary(state.battles, remaining, group_lines(state), tuple(state.eliminated), counts)


def entrants(state: State) -> Entrants:
    notes: list[str] = []
    opts = state.options
    if opts.mastermind:
        notes.append("黒幕あり（正体は非公開。黒幕陣営はダイス民が非公開ダイスで決定済み）")
    if opts.revival:
        notes.append(f"地区復活ダイスあり（各地区代表{opts.revival_representatives}名）")
    if opts.tag_match:
        notes.append("タッグマッチ（チーム名は安価で決定）")
    if opts.renumber_after_dead_picks:
        notes.append(f"脱落済みが{opts.renumber_after_dead_picks}回続けて出たら都道府県表を作り直し")
    else:
        notes.append("脱落者が出るたびに都道府県表を作り直し")
    rows, header, _ = survivor_rows(state)
    return Entrants(opts.title, tuple(row[: len(header)] for row in rows), header, tuple(notes))
