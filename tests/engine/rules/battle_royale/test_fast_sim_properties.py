"""Quick play against the step machine over seasons of any shape (Hypothesis): rosters of 3–12 in 1–4
regions, every option the scenario takes, 黒幕, 地区復活 (alone or together) and the タッグマッチ — the
same dice give the same game, from the start and from a position part-way through."""

from __future__ import annotations

from typing import Any

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from engine.rules import battle_royale as br
from engine.rules.battle_royale.fast_sim import QuickDice, outcome_of, play_quick
from engine.rules.battle_royale.scenario import ScenarioError
from engine.rules.battle_royale.state import State

NAMES = [p["name"] for p in br.default_scenario()["prefectures"]]

_MASTERMIND = st.fixed_dictionaries(
    {
        "enabled": st.just(True),
        "lives": st.integers(1, 6),
        "camp_die": st.integers(1, 6),
        "death_costs_life": st.booleans(),
        "collaborators_add_wins": st.booleans(),
        "collaborators_count_as_defeats": st.booleans(),
        "final_alliance": st.sampled_from(["reconcile", "reroll"]),
        "final_escape": st.sampled_from(["reroll", "mastermind_flees"]),
        "final_mutual": st.sampled_from(["reroll", "all_fall"]),
    }
)
_OPTIONS = st.fixed_dictionaries(
    {
        "renumber_after_dead_picks": st.integers(0, 4),
        "infight_mutual": st.sampled_from(["pair", "group"]),
        "surprise_equal_groups": st.sampled_from(["plain", "group"]),
    }
)


@st.composite
def seasons(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=12, unique=True))
    regions = draw(st.lists(st.sampled_from("東西南北"), min_size=len(names), max_size=len(names)))
    scenario: dict[str, Any] = {
        "prefectures": [{"name": n, "region": r} for n, r in zip(names, regions, strict=True)],
        "options": draw(_OPTIONS),
    }
    kind = draw(st.sampled_from(["plain", "mastermind", "revival", "both", "tag"]))
    if kind in ("mastermind", "both"):
        scenario["mastermind"] = draw(_MASTERMIND)
    if kind in ("revival", "both"):
        scenario["revival"] = {"enabled": True, "representatives": draw(st.integers(1, 3))}
    if kind == "tag":
        scenario["tag_match"] = {
            "enabled": True,
            "ally_inapplicable": draw(st.sampled_from(["reroll", "escape"])),
        }
    return scenario


def by_the_rules(state: State, dice: QuickDice, stop_after: int | None = None) -> State:
    rolled = 0
    while (request := br.next_die(state)) is not None and rolled != stop_after:
        faces = tuple(dice.roll(request.sides) for _ in range(request.count))
        state, _ = br.apply_roll_events(state, faces, request, narrate=False)
        rolled += 1
    return state


@settings(max_examples=80, deadline=None)
@given(seasons(), st.integers(0, 2**32), st.integers(0, 60))
def test_any_season_plays_the_same_game_quickly(scenario: dict[str, Any], seed: int, part: int) -> None:
    try:
        start = br.initial_state(scenario)
    except ScenarioError:
        reject()  # too few entrants for the season: the scenario is refused
    assert play_quick(start, QuickDice(seed)) == outcome_of(by_the_rules(start, QuickDice(seed)))
    later = by_the_rules(start, QuickDice(seed + 1), stop_after=part)
    assert play_quick(later, QuickDice(seed)) == outcome_of(by_the_rules(later, QuickDice(seed)))
