"""都道府県バトロワ: whole simulated 47-prefecture games per CPU-second, with and without each special rule.

`quick` plays as `threadgm simulate` does (quick.py: a fast seeded PRNG, in place, no object per die);
`hmac` plays the same rules through the bot's own step functions on the verifiable HMAC streams, one
copy of the state per die (`play_game`), the peer `quick` is measured against; `narrated` builds every
report as the bot would post it (`play_step`). Also prints dice per game and the time of a 10,000-game
win-chance table from a mid-game position (`threadgm simulate --from`).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from engine.rng import SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.fast_sim import QuickDice, roll_in_place
from engine.rules.battle_royale.sim import simulate_from
from engine.rules.battle_royale.state import clone

MODES: dict[str, dict[str, Any]] = {
    "plain": {},
    "mastermind": {"mastermind": {"enabled": True}},
    "revival": {"revival": {"enabled": True}},
    "tag_match": {"tag_match": {"enabled": True}},
}


def source(mode: str, run: int) -> SeededSource:
    return SeededSource(hashlib.sha256(f"bench|{mode}|{run}".encode()).digest())


def hmac(start: br.State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.process_time()
    for run in range(games):
        end = br.play_game(start, source(mode, run))
        dice += end.dice_total
    return time.process_time() - began, dice


def quick(start: br.State, mode: str, games: int) -> tuple[float, int]:
    began = time.process_time()
    result = simulate_from(start, games, f"bench|{mode}")
    return time.process_time() - began, sum(result.dice)


def narrated(start: br.State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.process_time()
    for run in range(games):
        state, dice_source = start, source(mode, run)
        while br.next_die(state) is not None:
            state, *_ = br.play_step(state, dice_source)
        dice += state.dice_total
    return time.process_time() - began, dice


def mid_game(battles: int = 20) -> br.State:
    """A stored position: the plain season after `battles` battles (on a quick die)."""
    state = clone(br.initial_state({}))
    dice = QuickDice("bench position")
    while state.battles < battles:
        roll_in_place(state, dice)
    return state


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench battle_royale")
    parser.add_argument("--games", type=int, default=200, help="verifiable games per season (quick: ×10 plain)")
    games = max(parser.parse_args(argv or []).games, 4)
    for mode, scenario in MODES.items():
        start = br.initial_state(scenario)
        rates: dict[str, float] = {}
        for label, run, count in (
            ("hmac", hmac, games),
            ("quick", quick, games * 10 if mode == "plain" else games),
            ("narrated", narrated, games // 4),
        ):
            seconds, dice = run(start, mode, count)
            rates[label] = count / seconds
            print(
                f"battle-royale {mode:<10} {label:<8} {rates[label]:8.1f} games/CPU-s"
                f"  {dice / count:6.1f} dice/game  {dice / seconds:9.0f} dice/s",
                flush=True,
            )
        print(f"battle-royale {mode:<10} quick/hmac {rates['quick'] / rates['hmac']:6.1f}×", flush=True)
    position = mid_game()
    began, wall = time.process_time(), time.perf_counter()
    simulate_from(position, 10_000, "bench")
    print(
        f"battle-royale win chances from battle {position.battles}: 10,000 games in "
        f"{time.process_time() - began:.2f} CPU-s ({time.perf_counter() - wall:.2f} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
