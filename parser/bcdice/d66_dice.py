"""D66 `D66`, `D66A`/`D66S` (ascending), `D66D` (descending), `D66N` (as rolled) (BCDice's D66Dice)."""

from __future__ import annotations

from dataclasses import dataclass

import regex

from parser.bcdice.lexer import first_word

_D66 = regex.compile(r"(S?)D66([ANSD]?)")

NO_SORT, ASCENDING, DESCENDING = "N", "A", "D"


@dataclass(frozen=True, slots=True)
class D66Dice:
    secret: bool
    suffix: str  # as written, upper-cased ("" when absent): echoed in `(D66A)`

    @property
    def sort(self) -> str:
        """How the two dice are ordered; plain `D66` follows the game system (no sorting)."""
        return {"A": ASCENDING, "S": ASCENDING, "D": DESCENDING}.get(self.suffix, NO_SORT)


def parse(command: str) -> D66Dice | None:
    match = _D66.fullmatch(first_word(command).upper())
    if match is None:
        return None
    return D66Dice(bool(match[1]), match[2])
