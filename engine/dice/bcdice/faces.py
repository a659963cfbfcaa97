"""Which totals a dice command can show, as sorted disjoint intervals, and how outcome ranges cover them.

For labelled dice tables: a table is rolled only when its outcome lines cover every possible total
exactly once. Totals are known for sums built from `+`/`-` of plain or kept/dropped rolls and numbers
(`1D8`, `2D6+1`, `4D6KH3`; such sums take every value between their least and greatest) and for D66
(`D66`, `D66A`, ...). Other commands (`2D6*2`, comparisons, choice, ...) have no table faces.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice.bcdice.add_dice import IMPLICIT_SIDES
from engine.dice.bcdice.arithmetic import value
from engine.dice.bcdice.roller import MAX_SIDES, MAX_TIMES, Refused
from parser.bcdice import LimitExceeded, parse_all
from parser.bcdice.add_dice import DROP_HIGHEST, DROP_LOWEST, AddDice, DiceRoll
from parser.bcdice.arithmetic import ADD, SUB, Chain, Neg, Node, Num, Paren
from parser.bcdice.d66_dice import ASCENDING, DESCENDING, D66Dice

Interval = tuple[int, int]


@dataclass(frozen=True)
class Coverage:
    """How outcome ranges meet the possible totals; all empty means every total has one outcome."""

    missing: tuple[Interval, ...]  # totals no outcome names
    repeated: tuple[Interval, ...]  # totals two or more outcomes name
    impossible: tuple[Interval, ...]  # outcome totals the dice never show
    reversed: tuple[Interval, ...]  # ranges written high to low, as written

    @property
    def complete(self) -> bool:
        return not (self.missing or self.repeated or self.impossible or self.reversed)


def bbs_totals(count: int, sides: int) -> tuple[Interval, ...]:
    return ((count, count * sides),)


def command_totals(normalized: str) -> tuple[Interval, ...] | None:
    """The totals of a BCDice command line (NFKC), or None if it has no table faces."""
    try:
        command = next(parse_all(normalized), None)
        if isinstance(command, D66Dice):
            return _d66_totals(command.sort)
        if isinstance(command, AddDice) and command.cmp_op is None:
            span = _span(command.lhs)
            return (span,) if span is not None else None
    except (LimitExceeded, Refused):
        return None
    return None


def coverage(totals: tuple[Interval, ...], ranges: list[Interval]) -> Coverage:
    reversed_ranges = tuple(r for r in ranges if r[0] > r[1])
    ordered = sorted(r for r in ranges if r[0] <= r[1])
    repeated: list[Interval] = []
    reach: int | None = None
    for first, last in ordered:
        if reach is not None and first <= reach:
            repeated.append((first, min(last, reach)))
        reach = last if reach is None else max(reach, last)
    named = merge(ordered)
    return Coverage(
        missing=subtract(totals, named),
        repeated=merge(repeated),
        impossible=subtract(named, totals),
        reversed=reversed_ranges,
    )


def merge(intervals: list[Interval]) -> tuple[Interval, ...]:
    merged: list[Interval] = []
    for first, last in sorted(intervals):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return tuple(merged)


def subtract(minuend: tuple[Interval, ...], subtrahend: tuple[Interval, ...]) -> tuple[Interval, ...]:
    """Totals in `minuend` and not in `subtrahend` (both sorted and disjoint)."""
    left: list[Interval] = []
    for first, last in minuend:
        start = first
        for cut_first, cut_last in subtrahend:
            if cut_last < start or cut_first > last:
                continue
            if cut_first > start:
                left.append((start, cut_first - 1))
            start = max(start, cut_last + 1)
            if start > last:
                break
        if start <= last:
            left.append((start, last))
    return tuple(left)


def _d66_totals(order: str) -> tuple[Interval, ...]:
    pairs = [(tens, units) for tens in range(1, 7) for units in range(1, 7)]
    if order == ASCENDING:
        pairs = [(a, b) for a, b in pairs if a <= b]
    elif order == DESCENDING:
        pairs = [(a, b) for a, b in pairs if a >= b]
    return merge([(10 * a + b, 10 * a + b) for a, b in pairs])


def _span(node: Node) -> Interval | None:
    """Least and greatest total of a sum of rolls and numbers; None for anything else."""
    if isinstance(node, Num):
        return (node.value, node.value)
    if isinstance(node, DiceRoll):
        return _dice_span(node)
    if isinstance(node, Paren):
        return _span(node.inner)
    if isinstance(node, Neg):
        inner = _span(node.body)
        if inner is None:
            return None
        return (-inner[1], -inner[0]) if node.count % 2 else inner
    if isinstance(node, Chain):
        low_high = _span(node.first)
        for op, operand in node.rest:
            part = _span(operand)
            if low_high is None or part is None or op not in (ADD, SUB):
                return None
            if op == ADD:
                low_high = (low_high[0] + part[0], low_high[1] + part[1])
            else:
                low_high = (low_high[0] - part[1], low_high[1] - part[0])
        return low_high
    return None


def _dice_span(node: DiceRoll) -> Interval | None:
    times = value(node.times, zero_is_one=True)
    sides = IMPLICIT_SIDES if node.sides is None else value(node.sides, zero_is_one=True)
    if not 1 <= times <= MAX_TIMES or not 1 <= sides <= MAX_SIDES or sides == 66:
        return None
    kept = times
    if node.keep is not None:
        count = min(max(value(node.keep_count or Num(1), zero_is_one=True), 0), times)
        kept = times - count if node.keep in (DROP_HIGHEST, DROP_LOWEST) else count
    return (kept, kept * sides)
