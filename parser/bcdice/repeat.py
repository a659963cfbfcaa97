"""Repeat `x5 1D6`, `rep5 1D6`, `repeat5 1D6` (BCDice's Repeat): the rest of the line, N times.

The keyword comes first on the line (an `S` before it makes the whole answer secret), then a count,
then whitespace, then the command to repeat (its own comment included).
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_REPEAT = regex.compile(r"(S?)(?:repeat|rep|x)([0-9]+)[ \t\n\v\f\r]+", regex.IGNORECASE)
_NESTED = regex.compile(r"(?:repeat|rep|x)[0-9]", regex.IGNORECASE)

# Counts with more significant digits than this are out of range whatever they say.
_COUNT_DIGITS = 6


@dataclass(frozen=True, slots=True)
class Repeat:
    secret: bool
    times: int
    trailer: str

    @property
    def nested(self) -> bool:
        """The repeated command is itself a repeat (BCDice checks lower case only; we check both)."""
        return _NESTED.match(self.trailer) is not None


def parse(command: str) -> Repeat | None:
    match = _REPEAT.match(command)
    if match is None or match.end() == len(command):
        return None
    digits = match[2].lstrip("0") or "0"
    times = int(digits) if len(digits) <= _COUNT_DIGITS else 10**_COUNT_DIGITS
    return Repeat(bool(match[1]), times, command[match.end() :])
