"""What one BCDice command answered: BCDice's text and flags, plus what threadgm keeps beside them.

`Answer` is what a family gives, `BCDiceResult` what `engine.dice.bcdice.evaluate` returns.
"""

from __future__ import annotations

from typing import NamedTuple


class Answer(NamedTuple):
    """What a command family answers; `evaluate` adds the dice and the command and builds the
    BCDiceResult once (a family's answer is never copied into a second result)."""

    text: str
    secret: bool = False
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    total: int | None = None


class BCDiceResult(NamedTuple):
    """BCDice's answer (`text` and the flags of its test data) and the dice behind it.

    `rolls` are the (sides, value) pairs in the order rolled, as BCDice's `rands`. `command` is the
    input as given, `normalized` its NFKC form (what was evaluated). `refused` marks threadgm's own
    limits (too many dice, too long, numbers too large): `text` is then the Japanese reason, not a
    BCDice answer. `total` is the number a sum (`2D6+1`) or a D66 came to, for dice tables.

    Immutable as a tuple: one is built per command, and a frozen dataclass's `__init__` (a
    `object.__setattr__` call per field) cost four times a tuple's.
    """

    text: str
    secret: bool = False
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    rolls: tuple[tuple[int, int], ...] = ()
    command: str = ""
    normalized: str = ""
    refused: bool = False
    total: int | None = None
