"""One season of にじ野望 as a pure function: (state, orders in posting order, dice) → (next state,
what happened). The order of §10, with the steps the seed leaves unplaced put where they do least harm:

    参加 → 外交（同盟・降伏） → 引き抜き・寝返り → 内政・配信 → 徴兵 → 移動
         → 編成・救援・委任 → 下克上 → 出陣・合戦 → 占領・処断 → 次の季節

Each area takes one command (the last valid one its controller wrote) and one of each designation;
an area without orders does nothing and keeps its designations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rng import Dice, RandomSource
from engine.rules.nijiyabou import authority, changes, diplomacy, home, war
from engine.rules.nijiyabou.authority import played_liver
from engine.rules.nijiyabou.grammar import (
    CLAIM,
    CONSCRIPT,
    DELEGATE,
    DIPLOMACY,
    DOMESTIC,
    JOINT,
    MOVE,
    ORGANIZE,
    RELIEF,
    REVOLT,
    SORTIE,
    STREAM,
    Act,
    AreaOrder,
)
from engine.rules.nijiyabou.state import State, clone
from engine.ruleset import Order

PHASES = (
    "参加",
    "外交",
    "引き抜き・寝返り",
    "内政・配信",
    "徴兵",
    "移動",
    "編成・救援・委任",
    "下克上",
    "出陣",
)


class Recording:
    """A RandomSource that remembers every face of every purpose (for the report and `verify`)."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self.rolls: dict[str, list[list[int]]] = {}

    def stream(self, purpose: str) -> Dice:
        inner, log = self.source.stream(purpose), self.rolls.setdefault(purpose, [])

        class _Dice:
            def roll(self, sides: int) -> int:
                face = inner.roll(sides)
                log.append([sides, face])
                return face

        return _Dice()


@dataclass
class Season:
    """What one season did: phase → lines, refused orders, battles, the rolls."""

    label: str
    events: dict[str, list[str]] = field(default_factory=lambda: {phase: [] for phase in PHASES})
    refused: list[tuple[int, str, str]] = field(default_factory=list)  # post, canonical, reason
    war: war.War = field(default_factory=war.War)
    revolts: list[tuple[str, Any]] = field(default_factory=list)
    rolls: dict[str, list[list[int]]] = field(default_factory=dict)
    gone: list[str] = field(default_factory=list)


def _claims(state: State, orders: Sequence[Order], season: Season) -> None:
    for order in orders:
        command = order.command
        if not isinstance(command, Act) or command.kind != CLAIM:
            continue
        reason = authority.problem(state, command, order.author)
        if reason:
            season.refused.append((order.post, order.canonical, reason))
            continue
        target = authority.claim_target(state, command.liver)
        assert target is not None
        state.livers[target].player = order.author
        season.events["参加"].append(f"{state.livers[target].name}：{order.author}が参加")


def _authorized(state: State, orders: Sequence[Order], season: Season) -> tuple[dict, list[tuple[Act, str]]]:
    """The orders that count: per (area, slot) the last valid one; the acts with their authors' livers."""
    slots: dict[tuple[str, str], AreaOrder] = {}
    acts: list[tuple[Act, str]] = []
    for order in orders:
        command = order.command
        if isinstance(command, Act) and command.kind == CLAIM:
            continue
        reason = authority.problem(state, command, order.author, gm=order.gm)
        if reason:
            season.refused.append((order.post, order.canonical, reason))
        elif isinstance(command, Act):
            acts.append((command, played_liver(state, order.author) or ""))
        else:
            slot = command.kind if command.kind in (ORGANIZE, RELIEF, DELEGATE) else "command"
            slots[(command.area, slot)] = command
    return slots, acts


def _of(slots: dict, kind: str) -> list[AreaOrder]:
    return [order for order in slots.values() if order.kind == kind]


def _apply(season: Season, phase: str, outcome: tuple[bool, str]) -> None:
    season.events[phase].append(outcome[1] if outcome[0] else f"{outcome[1]}（実行されず）")


def _home(state: State, slots: dict, season: Season, dice: Recording, moved: home.Moved) -> None:
    for order in _of(slots, DOMESTIC):
        _apply(season, "内政・配信", home.domestic(state, order))
    for order in _of(slots, STREAM):
        _apply(season, "内政・配信", home.stream(state, order, dice.stream(f"niji/haishin/{order.area}")))
    for order in _of(slots, CONSCRIPT):
        _apply(season, "徴兵", home.conscript(state, order))
    for order in _of(slots, MOVE):
        _apply(season, "移動", home.move(state, order, moved))
    for kind, act in ((ORGANIZE, home.organize), (RELIEF, home.relief), (DELEGATE, home.delegate)):
        for order in _of(slots, kind):
            _apply(season, "編成・救援・委任", act(state, order))


def _battles(
    state: State, slots: dict, season: Season, dice: Recording, moved: home.Moved, yielding: set[str]
) -> None:
    found = war.declare(state, _of(slots, SORTIE), moved, yielding)
    declared = [
        (state.areas[o.area].owner or "", o)
        for o in _of(slots, DIPLOMACY)
        if o.act == JOINT and o.joint is not None
    ]
    joints = war.ally_joints(state, found, declared, moved)
    war.fight_all(state, found, joints, moved, dice)
    war.settle(state, found, _follow(state))
    season.war = found


def _follow(state: State) -> Callable[[str], str]:
    """What a country id is now: countries merge into others as their lords change sides."""

    def follow(country: str) -> str:
        seen = 0
        while country not in state.countries and seen < len(state.livers):
            country = state.livers[country].country or country
            seen += 1
        return country

    return follow


def resolve_season(state: State, orders: Sequence[Order], source: RandomSource) -> tuple[State, Season]:
    new = clone(state)
    season = Season(new.season_name())
    dice = Recording(source)
    _claims(new, orders, season)
    slots, acts = _authorized(new, orders, season)
    events, yielding = diplomacy.diplomacy(new, [o for o in _of(slots, DIPLOMACY) if o.act != JOINT])
    season.events["外交"] += events
    season.events["引き抜き・寝返り"] += diplomacy.betrayals(new, acts)
    moved = home.Moved()
    _home(new, slots, season, dice, moved)
    for act, _ in acts:
        if act.kind == REVOLT:
            text, fought = diplomacy.revolt(new, act, dice)
            season.events["下克上"].append(text)
            season.revolts.append((text, fought))
    _battles(new, slots, season, dice, moved, yielding)
    season.gone = changes.drop_empty_countries(new)
    new.season += 1
    if len(new.countries) == 1:
        new.winner = next(iter(new.countries))
    season.rolls = dice.rolls
    return new, season


__all__ = ["MOVE", "PHASES", "Recording", "Season", "resolve_season"]
