"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable

MIN_SECONDS = 1.0


def per_second(
    run_once: Callable[[], object],
    per_run: int = 1,
    min_seconds: float = MIN_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Items per second: `run_once` (handling `per_run` items) repeated for at least `min_seconds`
    of `clock` (wall time; `time.process_time` gives items per CPU-second)."""
    runs, start = 0, clock()
    while (elapsed := clock() - start) < min_seconds or runs == 0:
        run_once()
        runs += 1
    return runs * per_run / elapsed


def repeated(count: int, action: Callable[[], object]) -> float:
    """Actions per second over exactly `count` calls (for actions with side effects to count)."""
    start = time.perf_counter()
    for _ in range(count):
        action()
    return count / (time.perf_counter() - start)
