"""Tripcode speed: DES crypt(3) per second, and whole trips of name fields (crypt and SHA-1 kinds).

A trip is computed for every post whose name has a `#key`; the target is well under 1 ms a crypt.
Run with `.venv/bin/python -m bench trip`.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def _best_rate(label: str, work: Callable[[int], object], count: int, rounds: int = 5) -> None:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for i in range(count):
            work(i)
        best = min(best, time.perf_counter() - start)
    print(f"{label:<34} {count / best:>9,.0f} /s   {best / count * 1e6:>8.1f} µs each")


def main() -> None:
    start = time.perf_counter()
    from board.descrypt import crypt
    from board.tripcode import display_trip, key_bytes, trip_for_key

    print(f"{'import (tables built)':<34} {(time.perf_counter() - start) * 1e3:>9.1f} ms")
    start = time.perf_counter()
    key_bytes("キー")
    print(f"{'first key_bytes (CP932 table)':<34} {(time.perf_counter() - start) * 1e3:>9.1f} ms")

    keys = [f"key{i:05d}".encode() for i in range(400)]
    _best_rate("crypt(key, salt)", lambda i: crypt(keys[i], b"H."), len(keys))
    _best_rate("trip_for_key, 10-char (crypt)", lambda i: trip_for_key(keys[i]), len(keys))
    long_keys = [f"threadgm-key-{i:05d}".encode() for i in range(400)]
    _best_rate("trip_for_key, 12-char (SHA-1)", lambda i: trip_for_key(long_keys[i]), len(long_keys))
    names = [f"名無し#鍵{i:04d}" for i in range(400)]
    _best_rate("display_trip('名無し#鍵NNNN')", lambda i: display_trip(names[i]), len(names))


if __name__ == "__main__":
    main()
