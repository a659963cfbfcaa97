"""都道府県バトロワ: whole simulated 47-prefecture games per second, with and without each special rule.

`quiet` plays through `play_game` (no reports, as `threadgm simulate` does); `narrated` builds every
report as the bot would post it (`play_step`). Also prints dice per game and dice per second.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from engine.rng import SeededSource
from engine.rules import battle_royale as br

MODES: dict[str, dict[str, Any]] = {
    "plain": {},
    "mastermind": {"mastermind": {"enabled": True}},
    "revival": {"revival": {"enabled": True}},
    "tag_match": {"tag_match": {"enabled": True}},
}


def source(mode: str, run: int) -> SeededSource:
    return SeededSource(hashlib.sha256(f"bench|{mode}|{run}".encode()).digest())


def quiet(start: br.State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.perf_counter()
    for run in range(games):
        end = br.play_game(start, source(mode, run))
        dice += end.dice_total
    return time.perf_counter() - began, dice


def narrated(start: br.State, mode: str, games: int) -> tuple[float, int]:
    dice = 0
    began = time.perf_counter()
    for run in range(games):
        state, dice_source = start, source(mode, run)
        while br.next_die(state) is not None:
            state, *_ = br.play_step(state, dice_source)
        dice += state.dice_total
    return time.perf_counter() - began, dice


def main(games: int = 200) -> None:
    for mode, scenario in MODES.items():
        start = br.initial_state(scenario)
        for label, run, count in (("quiet", quiet, games), ("narrated", narrated, games // 4)):
            seconds, dice = run(start, mode, count)
            print(
                f"battle-royale {mode:<10} {label:<8} {count / seconds:7.1f} games/s"
                f"  {dice / count:6.1f} dice/game  {dice / seconds:8.0f} dice/s",
                flush=True,
            )


if __name__ == "__main__":
    main()
