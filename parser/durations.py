"""Lengths of time as people write them: `30分`, `2時間`, `1時間30分`, `1時間半`, `1日`, `90m`, `2h`,
`1h30m`, `1.5h`, `1d`, `90s` — (number, unit) pairs from days down to seconds, Japanese and ASCII units
alike, spaces allowed between pairs. The GM's 延長 and the schedules of games both read them here;
each decides for itself which units and totals it accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import regex

SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_WORDS = {
    "d": r"日間|日|days|day|d",
    "h": r"時間|hours|hour|hrs|hr|h",
    "m": r"分間|分|minutes|minute|mins|min|m",
    "s": r"秒間|秒|seconds|second|secs|sec|s",
}
# The lookahead keeps `2mo` or `3hex` from being read as units.
_PAIR = regex.compile(
    r"\s*+(?P<n>[0-9]{1,6}(?:\.[0-9]{1,4})?)\s*+(?:"
    + "|".join(rf"(?P<{key}>(?:{words})(?![A-Za-z]))" for key, words in _WORDS.items())
    + r")(?P<half>半)?",
    regex.IGNORECASE,
)


@dataclass(frozen=True)
class Span:
    seconds: Decimal  # may have a fraction (`1.5m`): the reader's caller decides
    units: tuple[str, ...]  # the units read, largest first ("d", "h", "m", "s")
    end: int  # where the pairs end in the text


def read_span(text: str, units: str = "dhms", start: int = 0) -> Span | None:
    """The pairs at `start` of `text` (after NFKC), units only from `units`, each unit at most once and
    from large to small; None when no pair starts there."""
    position, seen, total = start, [], Decimal(0)
    order = list(SECONDS)
    while (pair := _PAIR.match(text, position)) is not None:
        unit = next(key for key in SECONDS if pair[key])
        if unit not in units or (seen and order.index(unit) <= order.index(seen[-1])):
            break  # `30分1時間` or a unit not wanted here: the caller sees the rest as unread
        total += (Decimal(pair["n"]) + (Decimal("0.5") if pair["half"] else 0)) * SECONDS[unit]
        seen.append(unit)
        position = pair.end()
    return Span(total, tuple(seen), position) if seen else None
