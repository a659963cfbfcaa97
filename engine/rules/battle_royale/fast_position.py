"""Where quick play (`fast_sim.py`) can start and how it ends: a game between battles, or before its set-up
dice, read off a `State` into integer indexes (`Position`), and the figures of a finished game
(`Outcome`). Any other position — inside a battle, before a final, a newcomer's entry still to announce —
is taken to one of these by the rules' own step machine first.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.state import ALIVE, RESERVE, Options, State

# Set-up dice the quick game plays itself (season_rules.py), and the transition that closes the set-up.
SETUP_DICE = frozenset({"rep_pick", "tag_pair", "mm_pick", "mm_camp", "mm_collab"})


@dataclass
class Outcome:
    """How one game ended: the winners (as the state's ending lists them), its battles and dice (requests, as
    `State.dice_total` counts them), who fell in order, and the rule counters (non-zero ones)."""

    kind: str
    winners: tuple[str, ...]
    battles: int
    dice: int
    eliminated: tuple[str, ...]
    counters: dict[str, int]


@dataclass(frozen=True)
class Position:
    """A game as the quick game reads it: indexes into `names` (roster order), regions as indexes into
    `region_names`, table entries as prefecture indexes (team indexes into `teams` in a タッグマッチ)."""

    names: tuple[str, ...]
    region_of: tuple[int, ...]
    regions: tuple[tuple[int, ...], ...]  # each region's members
    alive: tuple[bool, ...]
    held: tuple[bool, ...]  # in reserve: 地区復活's prefectures not (yet) in play
    table: tuple[int, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...]  # (group id, members) in the state's order
    next_group: int
    teams: tuple[tuple[str, tuple[int, ...]], ...]  # (team id, members) in the state's order
    battles: int
    dice: int
    dead_streak: int
    eliminated: tuple[str, ...]
    counters: dict[str, int]
    options: Options
    mastermind: int  # index, or -1 (none, or not chosen yet)
    lives: int
    hidden: bool  # the mastermind faked its death and plays on as 「正体のわからない何者か」
    defeated: bool
    collaborators: tuple[int, ...]
    revival_done: frozenset[int]
    setup: tuple[tuple[str, int], ...]  # set-up dice still to roll: (kind, region index or -1)


def plain_rules(state: State) -> bool:
    """Whether the season has no special rule (no 黒幕, 地区復活 or タッグマッチ)."""
    options = state.options
    return not (options.mastermind or options.revival or options.tag_match or state.mastermind)


def at_boundary(state: State) -> bool:
    """Between battles, with only the next 【都道府県選択ダイス】 to roll."""
    pending = state.pending
    return (
        state.ending is None
        and state.setup_done
        and state.battle is None
        and len(pending) == 1
        and pending[0].kind == "select"
        and not pending[0].data
    )


def in_setup(state: State) -> bool:
    """Before the first battle with only set-up dice left (a new game of any season)."""
    pending = state.pending
    return (
        state.ending is None
        and not state.setup_done
        and state.battle is None
        and bool(pending)
        and pending[-1].kind == "setup_done"
        and all(step.kind in SETUP_DICE for step in pending[:-1])
    )


def can_start(state: State) -> bool:
    """Whether `position` reads this state: a boundary or the set-up, with no mastermind revealed and
    still standing (its final is the step machine's to play)."""
    mm = state.mastermind
    if mm is not None and ((mm.revealed and not mm.defeated) or (mm.name and mm.name not in state.status)):
        return False
    return at_boundary(state) or in_setup(state)


def position(state: State) -> Position:
    """The game `state` holds, on indexes (`can_start(state)` must be true)."""
    if not can_start(state):
        raise BattleRoyaleError("簡易シミュレーションは戦闘と戦闘の間（または開始前）からだけ始められます")
    try:
        return _read(state)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:  # a stored state edited by hand
        raise BattleRoyaleError(f"状態データが壊れています（{exc!r}）") from exc


def _read(state: State) -> Position:
    names = tuple(p.name for p in state.roster)
    index = {name: i for i, name in enumerate(names)}
    region_index = {region: i for i, region in enumerate(dict.fromkeys(p.region for p in state.roster))}
    region_of = tuple(region_index[p.region] for p in state.roster)
    teams = tuple((tid, tuple(index[m] for m in members)) for tid, members in state.teams.items())
    if state.options.tag_match and state.setup_done:
        team_index = {tid: i for i, (tid, _) in enumerate(teams)}
        table = tuple(team_index[key] for key in state.table)
    else:
        table = tuple(index[key] for key in state.table)
    mm = state.mastermind
    return Position(
        names,
        region_of,
        tuple(tuple(i for i, r in enumerate(region_of) if r == region) for region in region_index.values()),
        tuple(state.status[name] == ALIVE for name in names),
        tuple(state.status[name] == RESERVE for name in names),
        table,
        tuple((int(gid), tuple(index[m] for m in members)) for gid, members in state.groups.items()),
        state.next_group,
        teams,
        state.battles,
        state.dice_total,
        state.dead_streak,
        tuple(state.eliminated),
        dict(state.counters),
        state.options,
        index[mm.name] if mm is not None and mm.name else -1,
        mm.lives if mm is not None else 0,
        bool(mm and mm.hidden),
        bool(mm and mm.defeated),
        tuple(index[m] for m in mm.collaborators) if mm is not None else (),
        frozenset(region_index[r] for r in state.revival_done if r in region_index),
        tuple(
            (step.kind, region_index[step.data["region"]] if step.kind == "rep_pick" else -1)
            for step in state.pending[:-1]
        )
        if not state.setup_done
        else (),
    )
