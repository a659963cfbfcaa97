"""A die roll of a sum (`xDy`) after rolling: what it rolled and what it adds.

Evaluation (`add_dice`) makes one per roll and fills the breakdown (`8[5,3]+1`) from them; the
stringifier (`stringify`) prints a tree holding them both ways, as the echo (`2D6+1`, counts and sides
computed) and as the breakdown with the faces.
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
