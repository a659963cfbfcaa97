"""What one naval period produces, in the words of the page: the result of an order (勝利, 敗戦, 無効, or
移動 for a move carried out), the letters A, B, C, ... that name an island's random numbers and the
number a battle used, the `OrderResult` of each order and the `Resolution` of the period.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rules.naval.state import NavalState

WIN = "勝利"
LOSS = "敗戦"
VOID = "無効"
MOVED = "移動"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class RandomUse:
    island: str
    letter: str
    value: int


@dataclass(slots=True)  # one per order of a period: slots make each lighter and quicker to fill
class OrderResult:
    """The outcome of one order. `strengths` are (acting unit, opponent); `work` shows the judgement."""

    index: int
    island: str | None
    kind: str | None
    order: str
    result: str
    random: RandomUse | None = None
    winner: str | None = None
    loser: str | None = None
    reason: str = ""
    forced: str | None = None
    strengths: tuple[int, int] | None = None
    threshold: int | None = None
    work: str = ""
    post: int | None = None


@dataclass
class Resolution:
    """Everything one period produced: the next state, the numbers drawn, one result per order, and
    what happened besides the orders (carriers lost with their fighters, evacuations expired)."""

    period: int
    state: NavalState
    randoms: dict[str, list[int]]
    results: list[OrderResult]
    events: list[str] = field(default_factory=list)
