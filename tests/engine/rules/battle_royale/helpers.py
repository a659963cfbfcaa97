"""Helpers shared by the 都道府県バトロワ tests: small rosters, prepared positions, driving the step machine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.report import Report
from engine.rng import RecordedDice, RecordedSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.state import DEAD, State, is_alive


def roster(names: Iterable[str], region: str = "") -> list[dict[str, str]]:
    return [{"name": name, "region": region} for name in names]


def prepared(
    names: Iterable[str],
    *,
    dead: Iterable[str] = (),
    groups: Iterable[Iterable[str]] = (),
    **scenario: Any,
) -> State:
    """A fresh game on a small roster, with some prefectures already out and some groups already formed
    (a position reached by earlier battles, set directly so a test shows only the rule it is about)."""
    state = br.initial_state({"prefectures": roster(names), **scenario})
    for name in dead:
        state.status[name] = DEAD
        state.eliminated.append(name)
    for members in groups:
        gid = str(state.next_group)
        state.next_group += 1
        state.groups[gid] = list(members)
        for member in members:
            state.group_of[member] = gid
    return state


def play_recorded(
    state: State, rands: list[tuple[int, int]]
) -> tuple[State, list[br.DieRequest], list[Report]]:
    """Play recorded dice (BCDice rands) through the automatic loop until they run out or the game ends."""
    dice = RecordedDice(rands)
    source = RecordedSource(default=dice)
    requests: list[br.DieRequest] = []
    reports: list[Report] = []
    while dice.remaining and br.next_die(state) is not None:
        state, request, _, rep = br.play_step(state, source)
        requests.append(request)
        reports.append(rep)
    return state, requests, reports


def alive(state: State) -> set[str]:
    return {p.name for p in state.roster if is_alive(state, p.name)}


def groups(state: State) -> list[set[str]]:
    return sorted((set(members) for members in state.groups.values()), key=lambda g: sorted(g))
