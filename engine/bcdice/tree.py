"""The evaluated form of a sum (`xDy`): the AST with every die roll replaced by what it rolled.

Evaluation (`add_dice`) builds it, the stringifier (`stringify`) prints it twice: once as the command
BCDice echoes (`2D6+1`, counts and sides computed), once as the interim with the faces (`8[5,3]+1`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RolledDice:
    """`times D sides` (with its keep/drop filter) after rolling.

    `faces` are in the order rolled, or sorted ascending when a filter chose among them (BCDice
    prints them that way); `total` is what the roll contributes to the sum.
    """

    times: int
    sides: int
    keep: str | None
    keep_count: int | None
    faces: tuple[int, ...]
    total: int
