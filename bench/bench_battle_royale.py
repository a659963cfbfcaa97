"""都道府県バトロワ: whole simulated 47-prefecture games per CPU-second, with and without each special rule.

`quick` plays as `threadgm simulate` does (fast_sim.py: a fast seeded PRNG, the quick game on indexes);
`stepwise` plays the same games on the same PRNG through the rules' own step machine in place — how
`quick` played every special season before the quick game covered them (the "before" of `quick`, so
each season prints simulate's before → after);
`hmac` plays through the bot's own step functions on the verifiable HMAC streams, one copy of the state
per die (`play_game`); `narrated` builds every report as the bot would post it (`play_step`). The
`newcomers` season is the plain one with three 新規参入者 added before the first battle. Also prints the
time of a 10,000-game win-chance table from a mid-game position (`threadgm simulate --from`) and of
`状態` in the special seasons (its 優勝予想), against the same games on the step machine.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from engine.rng import SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.chances import position_seed, status_runs
from engine.rules.battle_royale.fast_sim import QuickDice, outcome_of, play_in_place, roll_in_place
from engine.rules.battle_royale.ruleset import AUTOMATIC
from engine.rules.battle_royale.sim import run_key, simulate_from
from engine.rules.battle_royale.state import State, clone

MODES: dict[str, dict[str, Any]] = {
    "plain": {},
    "mastermind": {"mastermind": {"enabled": True}},
    "revival": {"revival": {"enabled": True}},
    "tag_match": {"tag_match": {"enabled": True}},
    "newcomers": {},
}
NEWCOMERS = ("樺太", "千島", "小笠原")


def start_of(mode: str) -> State:
    state = br.initial_state(MODES[mode])
    if mode == "newcomers":
        for name in NEWCOMERS:
            state = br.add_newcomer(state, name)
        state, _ = br.settle(state)
    return state


def source(mode: str, run: int) -> SeededSource:
    return SeededSource(hashlib.sha256(f"bench|{mode}|{run}".encode()).digest())


def hmac(start: State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.process_time()
    for run in range(games):
        end = br.play_game(start, source(mode, run))
        dice += end.dice_total
    return time.process_time() - began, dice


def stepwise_games(start: State, seed: str, games: int) -> list[br.State]:
    """The games `simulate_from(start, games, seed)` plays, on the step machine in place."""
    ends = []
    for run in range(games):
        game = clone(start)
        play_in_place(game, QuickDice(int.from_bytes(run_key(seed, run), "big")))
        ends.append(game)
    return ends


def stepwise(start: State, mode: str, games: int) -> tuple[float, int]:
    began = time.process_time()
    ends = stepwise_games(start, f"bench|{mode}", games)
    return time.process_time() - began, sum(end.dice_total for end in ends)


def quick(start: State, mode: str, games: int) -> tuple[float, int]:
    began = time.process_time()
    result = simulate_from(start, games, f"bench|{mode}")
    return time.process_time() - began, sum(result.dice)


def narrated(start: State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.process_time()
    for run in range(games):
        state, dice_source = start, source(mode, run)
        while br.next_die(state) is not None:
            state, *_ = br.play_step(state, dice_source)
        dice += state.dice_total
    return time.process_time() - began, dice


def after_battles(scenario: dict[str, Any], battles: int) -> State:
    """A stored position: the season after `battles` battles (on a quick die)."""
    state = clone(br.initial_state(scenario))
    dice = QuickDice("bench position")
    while state.battles < battles:
        roll_in_place(state, dice)
    return state


def status_cost(mode: str) -> None:
    """状態 (its 優勝予想 table) in a season, against the same games played on the step machine."""
    state = after_battles(MODES[mode], 12)
    began = time.process_time()
    AUTOMATIC.status(state)
    spent = time.process_time() - began
    runs = status_runs(state)
    began = time.process_time()
    ends = stepwise_games(state, position_seed(state), runs)
    before = time.process_time() - began
    assert simulate_from(state, runs, position_seed(state)).wins == _wins(ends)  # the same games
    print(
        f"battle-royale {mode:<10} 状態 after battle {state.battles}: {spent:.3f} CPU-s "
        f"({runs} games; on the step machine {before:.3f} CPU-s)",
        flush=True,
    )


def _wins(ends: list[State]) -> dict[str, int]:
    wins: dict[str, int] = {}
    for end in ends:
        for name in outcome_of(end).winners:
            wins[name] = wins.get(name, 0) + 1
    return wins


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench battle_royale")
    parser.add_argument(
        "--games", type=int, default=200, help="verifiable games per season (stepwise ×2, quick ×10)"
    )
    games = max(parser.parse_args(argv or []).games, 4)
    runs: tuple[tuple[str, Callable[[State, str, int], tuple[float, int]], int], ...] = (
        ("hmac", hmac, games),
        ("stepwise", stepwise, games * 2),
        ("quick", quick, games * 10),
        ("narrated", narrated, games // 4),
    )
    for mode in MODES:
        start = start_of(mode)
        rates: dict[str, float] = {}
        for label, run, count in runs:
            seconds, dice = run(start, mode, count)
            rates[label] = count / seconds
            print(
                f"battle-royale {mode:<10} {label:<8} {rates[label]:8.1f} games/CPU-s"
                f"  {dice / count:6.1f} dice/game  {dice / seconds:9.0f} dice/s",
                flush=True,
            )
        if mode in ("plain", "newcomers"):  # the quick game played these before too
            change = f"{rates['quick']:.0f} games/CPU-s (plain rules: quick before too)"
        else:
            change = f"before → after: {rates['stepwise']:.0f} → {rates['quick']:.0f} games/CPU-s"
        print(
            f"battle-royale {mode:<10} simulate {change}, quick/stepwise"
            f" {rates['quick'] / rates['stepwise']:.1f}×, quick/hmac {rates['quick'] / rates['hmac']:.1f}×",
            flush=True,
        )
    position = after_battles({}, 20)
    began, wall = time.process_time(), time.perf_counter()
    simulate_from(position, 10_000, "bench")
    print(
        f"battle-royale win chances from battle {position.battles}: 10,000 games in "
        f"{time.process_time() - began:.2f} CPU-s ({time.perf_counter() - wall:.2f} s)",
        flush=True,
    )
    for mode in ("revival", "tag_match"):
        status_cost(mode)


if __name__ == "__main__":
    main()
