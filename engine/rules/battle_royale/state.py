"""The state of a 都道府県バトロワ as plain dataclasses, its dict form for storage, and what it reveals.

A `State` is a value: the step functions clone it (`clone`) and change the copy. Participants are keyed by
name; `status` is the truth (a mastermind who faked its death is still ALIVE here, with
`Mastermind.hidden` set); the `public_*` helpers give what the thread may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

ALIVE, DEAD, RESERVE = "alive", "dead", "reserve"
UNKNOWN = "正体のわからない何者か"
STATE_VERSION = 1


@dataclass(frozen=True)
class Prefecture:
    name: str
    code: str
    region: str


@dataclass(frozen=True)
class Options:
    """Scenario options (see HELP for the Japanese wording players read)."""

    title: str = "都道府県バトロワ"
    renumber_after_dead_picks: int = 3
    summary_every: int = 10
    battles_per_period: int = 1  # automatic play: battles per period of the schedule (or per GM 進行)
    mastermind: bool = False
    mastermind_lives: int = 10
    mastermind_camp_die: int = 5
    mastermind_death_costs_life: bool = True
    mastermind_collaborators_add_wins: bool = True
    mastermind_collaborators_count_as_defeats: bool = True
    mastermind_final_alliance: str = "reconcile"
    mastermind_final_escape: str = "reroll"  # 逃走 in the final: reroll | mastermind_flees
    mastermind_final_mutual: str = "reroll"  # 相打ち in the final: reroll | all_fall
    revival: bool = False
    revival_representatives: int = 2
    tag_match: bool = False
    tag_ally_inapplicable: str = "reroll"
    surprise_equal_groups: str = "plain"  # a successful surprise between equal groups: plain | group table
    infight_mutual: str = "pair"  # 相打ち inside an infight takes the two fighters (pair) or the group


@dataclass(frozen=True)
class Step:
    """One thing still to do: a die to roll or an automatic transition, with JSON-friendly data."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Battle:
    """The battle under way. `base`/`opponent` are table keys (names, or team ids in a tag match); the
    sides are the members standing with each at the start (the selected one first)."""

    number: int
    kind: str  # "battle" | "infight" | "final"
    base: str
    opponent: str
    base_side: list[str]
    opponent_side: list[str]
    surprise: bool = False
    base_moved: bool = False
    outcome: str = ""
    winner: str = ""  # "base" | "opponent" once decided
    group: str = ""  # the group fighting itself in an infight
    dead: list[str] = field(default_factory=list)
    joins: list[str] = field(default_factory=list)
    revived: list[str] = field(default_factory=list)
    final_result: str = ""  # ending kind decided by the final battle
    mark: int = 0  # len(State.eliminated) when the battle began

    def copy(self) -> Battle:
        new = Battle.__new__(Battle)
        new.__dict__ = {
            **self.__dict__,
            "base_side": list(self.base_side),
            "opponent_side": list(self.opponent_side),
            "dead": list(self.dead),
            "joins": list(self.joins),
            "revived": list(self.revived),
        }
        return new


@dataclass
class Mastermind:
    """黒幕: secret until `revealed`. `hidden` = publicly dead but still in play (「正体のわからない何者か」)."""

    name: str = ""
    camp_size: int = 0
    collaborators: list[str] = field(default_factory=list)
    lives: int = 10
    hidden: bool = False
    slot_unknown: bool = False  # a renumbered table lists its slot as the unknown
    revealed: bool = False
    defeated: bool = False

    def copy(self) -> Mastermind:
        return replace(self, collaborators=list(self.collaborators))


@dataclass
class Ending:
    kind: str  # "winner" | "mastermind" | "reconciled" | "fallen" (the final's 相打ち, no winner)
    winners: list[str]
    team: str = ""


@dataclass
class State:
    roster: tuple[Prefecture, ...]
    options: Options
    status: dict[str, str]
    table: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)
    group_of: dict[str, str] = field(default_factory=dict)
    next_group: int = 1
    teams: dict[str, list[str]] = field(default_factory=dict)
    team_names: dict[str, str] = field(default_factory=dict)
    team_of: dict[str, str] = field(default_factory=dict)
    pending: list[Step] = field(default_factory=list)
    battle: Battle | None = None
    battles: int = 0
    die_index: int = 0
    dice_total: int = 0
    setup_done: bool = False
    dead_streak: int = 0
    eliminated: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    mastermind: Mastermind | None = None
    revival_done: list[str] = field(default_factory=list)
    ending: Ending | None = None


def clone(state: State) -> State:
    """A copy whose containers can be changed without touching `state` (rosters and steps are frozen).
    Built through `__dict__` because simulations clone once per die and `dataclasses.replace` is slow."""
    new = State.__new__(State)
    new.__dict__ = {
        **state.__dict__,
        "status": dict(state.status),
        "table": list(state.table),
        "groups": {gid: list(members) for gid, members in state.groups.items()},
        "group_of": dict(state.group_of),
        "teams": {tid: list(members) for tid, members in state.teams.items()},
        "team_names": dict(state.team_names),
        "team_of": dict(state.team_of),
        "pending": list(state.pending),
        "battle": state.battle.copy() if state.battle else None,
        "eliminated": list(state.eliminated),
        "counters": dict(state.counters),
        "mastermind": state.mastermind.copy() if state.mastermind else None,
        "revival_done": list(state.revival_done),
        "ending": replace(state.ending, winners=list(state.ending.winners)) if state.ending else None,
    }
    return new


def bump(state: State, counter: str, by: int = 1) -> None:
    state.counters[counter] = state.counters.get(counter, 0) + by


# --- who is who -------------------------------------------------------------------------------------


def prefecture(state: State, name: str) -> Prefecture:
    for pref in state.roster:
        if pref.name == name:
            return pref
    raise KeyError(name)


def is_alive(state: State, name: str) -> bool:
    return state.status.get(name) == ALIVE


def is_hidden_mastermind(state: State, name: str) -> bool:
    mm = state.mastermind
    return mm is not None and mm.hidden and not mm.revealed and mm.name == name


def is_publicly_alive(state: State, name: str) -> bool:
    mm = state.mastermind
    return is_alive(state, name) and not (mm is not None and mm.hidden and mm.name == name)


def living(state: State) -> list[str]:
    """Everyone truly in play, roster order (a hidden mastermind included)."""
    return [p.name for p in state.roster if state.status[p.name] == ALIVE]


def public_living(state: State) -> list[str]:
    return [name for name in living(state) if is_publicly_alive(state, name)]


def contenders(state: State) -> list[str]:
    """The prefectures fighting for the win: everyone alive but the mastermind (until defeated)."""
    mm = state.mastermind
    return [name for name in living(state) if not (mm and mm.name == name)]


def shown(state: State, name: str) -> str:
    """A participant's name as the thread may see it: the hidden mastermind is 「正体のわからない何者か」."""
    return UNKNOWN if is_hidden_mastermind(state, name) else name


def quoted(state: State, name: str) -> str:
    return f"『{shown(state, name)}』"


def team_name(state: State, team: str) -> str:
    return state.team_names.get(team, f"チーム{team}")


def entry_alive(state: State, key: str) -> bool:
    """Whether a key of the selection table can still be picked (a team with someone left, a living
    prefecture, or the hidden mastermind's slot)."""
    if state.options.tag_match and state.setup_done:
        return bool(state.teams.get(key))
    return is_alive(state, key)


def entry_label(state: State, key: str) -> str:
    if state.options.tag_match and state.setup_done:
        return team_name(state, key)
    return shown(state, key)


def side_of(state: State, key: str) -> list[str]:
    """The members that stand with a selected table key: its team, its group, or itself."""
    if state.options.tag_match and state.setup_done:
        return list(state.teams.get(key, []))
    gid = state.group_of.get(key)
    if gid is None:
        return [key]
    return [key] + [m for m in state.groups[gid] if m != key]


def group_label(state: State, gid: str) -> str:
    members = "".join(quoted(state, m) for m in state.groups.get(gid, []))
    return f"団体{gid}（{members}）"


# --- dict form -------------------------------------------------------------------------------------


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict of the whole state (secrets included: store it, never post it)."""
    out: dict[str, Any] = {"version": STATE_VERSION}
    for f in fields(State):
        value = getattr(state, f.name)
        if f.name == "roster":
            out["roster"] = [[p.name, p.code, p.region] for p in value]
        elif f.name == "options":
            out["options"] = {o.name: getattr(value, o.name) for o in fields(Options)}
        elif f.name == "pending":
            out["pending"] = [{"kind": s.kind, "data": _plain(s.data)} for s in value]
        elif f.name in ("battle", "mastermind", "ending"):
            out[f.name] = (
                None if value is None else {g.name: _plain(getattr(value, g.name)) for g in fields(value)}
            )
        else:
            out[f.name] = _plain(value)
    return out


def state_from_dict(data: dict[str, Any]) -> State:
    """The inverse of `state_to_dict`; raises ValueError (Japanese) on a dict it cannot read."""
    try:
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"状態データの版 {data.get('version')!r} は読めません（対応: {STATE_VERSION}）")
        kwargs: dict[str, Any] = {}
        for f in fields(State):
            value = data[f.name]
            if f.name == "roster":
                value = tuple(Prefecture(*row) for row in value)
            elif f.name == "options":
                value = Options(**value)
            elif f.name == "pending":
                value = [Step(s["kind"], dict(s["data"])) for s in value]
            elif f.name == "battle":
                value = None if value is None else Battle(**value)
            elif f.name == "mastermind":
                value = None if value is None else Mastermind(**value)
            elif f.name == "ending":
                value = None if value is None else Ending(**value)
            kwargs[f.name] = value
        return clone(State(**kwargs))
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"状態データが壊れています（{exc}）") from exc


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
