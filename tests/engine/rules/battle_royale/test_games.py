"""Invariants over whole 都道府県バトロワ games, with and without each special rule: one winner (or the
mastermind's ending), the dead never act, groups and teams stay consistent, and every elimination is
announced and shows in the next 生き残り表 — checked at every step of the rules' own step machine.

The games checked are chosen, not drawn: a screen of many quick games (`fast_sim.py`, the same games
as the step machine's for the same dice — test_fast_sim.py) picks the few that between them reach every
rule event and ending the screen reached, rarest first, and each is then played step by step with every
check (and must end as the quick game said). Larger counts live in bench/bench_battle_royale.py.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest

from engine.rng import RandomSource, SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.events import Died, SurvivorTable
from engine.rules.battle_royale.fast_sim import Outcome, QuickDice, outcome_of, play_position, start_position
from engine.rules.battle_royale.resolution import apply_roll_events
from engine.rules.battle_royale.sim import roll_request
from engine.rules.battle_royale.state import State, contenders, entry_alive, is_alive
from engine.rules.battle_royale.tables import (
    BOT_TABLE_NAMES,
    SECRET_TABLE_NAMES,
    SEED_TABLES,
    SELECTION_NAMES,
)

ACTING_STEPS = {"policy", "surprise", "battle", "infight", "final"}
KNOWN_NAMES = {t.name for t in SEED_TABLES} | set(SELECTION_NAMES + BOT_TABLE_NAMES + SECRET_TABLE_NAMES)

SMALL = ["北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城", "栃木"]

MODES: dict[str, tuple[dict[str, Any], int, int]] = {
    # name: (scenario, quick 47-prefecture games screened, quick 9-prefecture games screened). Small
    # rosters reach the crowded end-game positions more often.
    "plain": ({}, 300, 1500),
    "renumber-every-elimination": ({"options": {"renumber_after_dead_picks": 0}}, 300, 1500),
    "mastermind": ({"mastermind": {"enabled": True}}, 300, 1500),
    "mastermind-variants": (
        {
            "mastermind": {
                "enabled": True,
                "lives": 3,
                "death_costs_life": False,
                "collaborators_add_wins": False,
                "collaborators_count_as_defeats": False,
                "final_alliance": "reroll",
            }
        },
        300,
        1500,
    ),
    "revival": ({"revival": {"enabled": True}}, 600, 0),
    "revival+mastermind": ({"revival": {"enabled": True}, "mastermind": {"enabled": True}}, 600, 0),
    "tag": ({"tag_match": {"enabled": True}}, 300, 1500),
    "tag-escape": ({"tag_match": {"enabled": True, "ally_inapplicable": "escape"}}, 300, 1500),
}
WANTED = 2  # games reaching each event (fewer when the screen had fewer)


def features(outcome: Outcome) -> set[str]:
    """What a game reached: its ending and every rule event it counted, by how often (1, 2–3, 4–7, …)."""
    return {f"ending:{outcome.kind}", *(f"{key}:{n.bit_length()}" for key, n in outcome.counters.items())}


def quick_games(start: State, label: str, pool: int) -> list[tuple[bytes, Outcome]]:
    """`pool` quick games from `start`, each with the key of its dice."""
    ready = start_position(start)
    assert ready is not None
    keys = [
        hashlib.sha256(f"test|{label}|{len(start.roster)}|{run}".encode()).digest() for run in range(pool)
    ]
    return [(key, play_position(ready, QuickDice(key).random)) for key in keys]


def screened(games: list[tuple[bytes, Outcome]]) -> list[tuple[bytes, Outcome]]:
    """The few games that between them reach every event any of `games` reached (each `WANTED` times
    where it can), rarest events first; the first game is always kept, as an ordinary one."""
    seen = Counter(f for _, outcome in games for f in features(outcome))
    wanted = {f: min(WANTED, n) for f, n in seen.items()}
    games, chosen = list(games), [games[0]]
    del games[0]
    while True:
        for f in features(chosen[-1][1]):
            wanted[f] -= 1
        score = {i: sum(1 / seen[f] for f in features(o) if wanted[f] > 0) for i, (_, o) in enumerate(games)}
        best = max(score, key=lambda i: score[i], default=None)
        if best is None or score[best] == 0:
            return chosen
        chosen.append(games.pop(best))


def check_position(state: State) -> None:
    """Groups, teams and the selection table agree with who is alive."""
    for gid, members in state.groups.items():
        assert len(members) >= 2, (gid, members)
        assert len(set(members)) == len(members)
        for member in members:
            assert is_alive(state, member) and state.group_of[member] == gid
    for member, gid in state.group_of.items():
        assert member in state.groups[gid]
    mm = state.mastermind
    if mm is not None and mm.hidden:
        assert mm.name not in state.group_of  # the unknown always fights alone
    seen: set[str] = set()
    for team, members in state.teams.items():
        for member in members:
            assert is_alive(state, member) and state.team_of[member] == team and member not in seen
            seen.add(member)
    if state.options.tag_match and state.setup_done:
        assert seen == {p.name for p in state.roster if is_alive(state, p.name)}


def check_eliminated(state: State) -> None:
    """Everyone announced out is out (a mastermind faking its death excepted), and only once."""
    assert len(state.eliminated) == len(set(state.eliminated))
    mm = state.mastermind
    for name in state.eliminated:
        assert not is_alive(state, name) or (mm is not None and mm.name == name and mm.hidden)


def check_request(state: State, request: br.DieRequest) -> None:
    """The dead never act: whoever a fighting die is for is alive. Every die has a known name."""
    assert request.name in KNOWN_NAMES and request.sides >= 2
    assert request.secret == (request.name in SECRET_TABLE_NAMES)
    battle = state.battle
    if request.step in ACTING_STEPS:
        assert battle is not None
        for name in battle.base_side + battle.opponent_side:
            assert is_alive(state, name), (request.step, name)
        assert entry_alive(state, battle.base) and entry_alive(state, battle.opponent)


def check_ending(state: State) -> None:
    ending = state.ending
    assert ending is not None and br.next_die(state) is None
    assert all(is_alive(state, w) for w in ending.winners)
    if ending.kind == "winner":
        if state.options.tag_match:
            standing = [t for t, members in state.teams.items() if members]
            assert len(standing) == 1 and state.teams[standing[0]] == ending.winners
        else:
            assert contenders(state) == ending.winners and len(ending.winners) == 1
            mm = state.mastermind
            assert mm is None or mm.defeated
    else:
        mm = state.mastermind
        assert mm is not None and mm.revealed and not mm.defeated
        assert ending.kind in ("mastermind", "reconciled") and ending.winners[0] == mm.name


def play(state: State, source: RandomSource, *, narrate: bool) -> State:
    announced: list[str] = []
    tabled: list[str] = []
    for _ in range(100_000):
        request = br.next_die(state)
        if request is None:
            break
        check_request(state, request)
        state, events = apply_roll_events(state, roll_request(request, source), request, narrate=narrate)
        check_position(state)
        if state.battle is None:
            check_eliminated(state)
        for event in events:
            if isinstance(event, Died) and not event.again and event.name not in announced:
                announced.append(event.name)
            elif isinstance(event, SurvivorTable):
                listed = {row[1] for row in event.rows}
                assert not listed & set(event.fallen)
                tabled.extend(event.fallen)
        if narrate and state.battle is None:
            assert announced == tabled
    check_ending(state)
    if narrate:
        assert announced == tabled == state.eliminated
    return state


@pytest.mark.parametrize("mode", list(MODES))
def test_invariants_over_whole_games(mode: str) -> None:
    scenario, big, small = MODES[mode]
    endings: Counter[str] = Counter()
    for roster, pool in ((None, big), (SMALL, small)):
        if not pool:
            continue
        start = br.initial_state(
            scenario if roster is None else {**scenario, "prefectures": [{"name": n} for n in roster]}
        )
        games = quick_games(start, mode, pool)
        chosen = screened(games)
        seen = Counter(f for _, outcome in games for f in features(outcome))
        reached = Counter(f for _, outcome in chosen for f in features(outcome))
        assert all(reached[f] >= min(WANTED, n) for f, n in seen.items())
        assert len(chosen) <= 40 < pool // 5
        for n, (key, quick) in enumerate(chosen):
            state = play(start, QuickDice(key), narrate=n % 2 == 0)
            assert outcome_of(state) == quick  # the game the screen chose, step by step
            assert state.ending is not None
            endings[state.ending.kind] += 1
    if scenario.get("mastermind"):
        assert endings["mastermind"] > 0 and endings["winner"] > 0
    else:
        assert set(endings) == {"winner"}


def test_mastermind_identity_stays_secret_until_revealed() -> None:
    """Before the reveal no public line ties a name to the mastermind, lives or collaborators never show,
    and once it has faked its death its name only appears where the thread already saw it fall."""
    start = br.initial_state({"mastermind": {"enabled": True}})
    hiding = {"mastermind_fake_deaths", "final_battles"}  # it faked its death, then was revealed
    chosen = [key for key, quick in quick_games(start, "secret", 60) if hiding <= set(quick.counters)][:10]
    reveals = 0
    for key in chosen:
        state, source = start, QuickDice(key)
        lines: list[str] = []
        while (request := br.next_die(state)) is not None and not (
            state.mastermind and state.mastermind.revealed
        ):
            hidden_before = bool(state.mastermind and state.mastermind.hidden)
            state, report = br.apply_roll(state, roll_request(request, source))
            if state.mastermind is not None and state.mastermind.revealed:
                reveals += 1
                break
            mm = state.mastermind
            assert mm is not None and mm.name
            for line in report.plain.splitlines():
                lines.append(line)
                assert "残機" not in line and "協力者" not in line, line
                if "黒幕" in line:
                    assert "『" not in line, line
                if hidden_before and mm.name in line:
                    assert line.startswith(("脱落順：", "今回の脱落：")), line
    assert reveals == len(chosen) >= 8


@pytest.mark.parametrize("mode", ["plain", "mastermind", "revival+mastermind", "tag"])
def test_simulation_without_reports_plays_the_same_game(mode: str) -> None:
    start = br.initial_state(MODES[mode][0])
    for run in range(4):
        key = hashlib.sha256(f"same|{mode}|{run}".encode()).digest()
        narrated = play(start, SeededSource(key), narrate=True)
        quiet = br.play_game(start, SeededSource(key))
        assert br.state_to_dict(quiet) == br.state_to_dict(narrated)
