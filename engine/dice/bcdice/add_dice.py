"""Sums `xDy` (BCDice's AddDice): roll every die of the expression, total it, judge a target.

BCDice prints `(echo) ＞ breakdown ＞ total`, leaving the breakdown out when the whole command is one
plain roll of at most one die (`(1D6) ＞ 5`), and adds 成功/失敗 when a numeric target was given.

A parse is prepared once (`prepare`, kept with the line's parse by `engine.dice.bcdice`): the numbers that
do not depend on the dice (counts, sides, keep counts, the target) and the echo are computed then,
and the breakdown becomes a template with one slot per roll. Evaluating rolls the dice and fills the
slots, in the order and with the refusals the tree walk gave: a number too large to compute is
refused where the walk met it, after the dice rolled before it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import apply, compare, value
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Refused, Roller
from engine.dice.bcdice.tree import RolledDice
from parser.bcdice.add_dice import (
    DROP_HIGHEST,
    DROP_LOWEST,
    KEEP_HIGHEST,
    UNDECIDED,
    AddDice,
    DiceRoll,
)
from parser.bcdice.arithmetic import DIVISIONS, Chain, Neg, Node, Num, Paren

IMPLICIT_SIDES = 6  # BCDice DiceBot's `sides_implicit_d`


Rolls = list[RolledDice]
Total = Callable[[Roller, Rolls], int]  # rolls the dice of a (sub)expression, appends them, gives its value
Template = list[str | int]  # the breakdown: text, and the index of a roll where its faces go


def evaluate(command: AddDice, roller: Roller) -> Answer:
    return prepare(command)(roller)


def prepare(command: AddDice) -> Callable[[Roller], Answer]:
    """The evaluation of one parse, with everything the dice do not change worked out beforehand."""
    template: Template = []
    notations: list[str] = []
    total_of = _compile(command.lhs, template, notations)
    slots = _merged(template)
    plain = isinstance(command.lhs, DiceRoll) and command.lhs.keep is None
    judged = command.cmp_op is not None and command.target is not None and command.target != UNDECIDED
    cmp_op = command.cmp_op or ""
    secret = command.secret
    target_value: int | None = None
    target_error: Refused | None = None
    target_text = ""
    if command.target == UNDECIDED:
        target_text = UNDECIDED
    elif command.target is not None:
        try:
            target_value = value(command.target, zero_is_one=True)
            target_text = str(target_value)
        except Refused as error:
            target_error = error
    expression = "".join(slot if isinstance(slot, str) else notations[slot] for slot in slots)
    echo = f"({expression}{stringify.cmp_text(command.cmp_op)}{target_text})"
    sep = stringify.SEP
    if plain and not judged and target_error is None:
        single = _single_roll(command.lhs, echo, secret)  # type: ignore[arg-type]
        if single is not None:
            return single

    def run(roller: Roller) -> Answer:
        rolls: Rolls = []
        total = total_of(roller, rolls)
        if target_error is not None:
            raise Refused(target_error.reason)
        if plain and sum(len(roll.faces) for roll in rolls) <= 1:
            text = f"{echo}{sep}{total}"
        else:
            interim = "".join(slot if isinstance(slot, str) else _faces(rolls[slot]) for slot in slots)
            text = f"{echo}{sep}{interim}{sep}{total}"
        if not judged:
            return Answer(text, secret=secret, total=total)
        success = compare(total, cmp_op, target_value)  # type: ignore[arg-type]
        return Answer(
            f"{text}{sep}{'成功' if success else '失敗'}",
            secret=secret,
            success=success,
            failure=not success,
            total=total,
        )

    return run


def _single_roll(node: DiceRoll, echo: str, secret: bool) -> Callable[[Roller], Answer] | None:
    """`xDy` alone (no keep, no target: most of what players roll) without the general machinery:
    the same text, the same dice, fewer steps. None when the roll is anything else (D66, a count or
    sides too large to compute, which the general path refuses at its turn)."""
    try:
        times = value(node.times, zero_is_one=True)
        sides = IMPLICIT_SIDES if node.sides is None else value(node.sides, zero_is_one=True)
    except Refused:
        return None
    if sides == 66:
        return None
    head = echo + stringify.SEP

    def run(roller: Roller) -> Answer:
        faces = roller.roll_barabara(times, sides)
        total = sum(faces)
        if len(faces) <= 1:
            return Answer(f"{head}{total}", secret, False, False, False, False, total)
        breakdown = ",".join(map(str, faces))
        return Answer(
            f"{head}{total}[{breakdown}]{stringify.SEP}{total}", secret, False, False, False, False, total
        )

    return run


def _faces(roll: RolledDice) -> str:
    return f"{roll.total}[{','.join(map(str, roll.faces))}]"


def _merged(template: Template) -> Template:
    merged: Template = []
    for part in template:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return merged


def _compile(node: Node, template: Template, notations: list[str]) -> Total:
    """`node` as a function of the dice; its text appended to `template` (a roll as its index,
    shown as `notations[index]` in the echo and as its faces in the breakdown)."""
    if isinstance(node, Num):
        number = node.value
        template.append(str(number))
        return lambda roller, rolls: number
    if isinstance(node, DiceRoll):
        template.append(len(notations))
        return _compile_dice(node, notations)
    if isinstance(node, Chain):
        first = _compile(node.first, template, notations)
        rest: list[tuple[str, Total]] = []
        for op, operand in node.rest:
            division = op in DIVISIONS
            template.append("/" if division else op)
            rest.append((op, _compile(operand, template, notations)))
            if division:
                template.append(stringify.SUM_ROUNDING.get(op, ""))

        def chain(roller: Roller, rolls: Rolls) -> int:
            total = first(roller, rolls)
            for op, operand in rest:
                total = apply(op, total, operand(roller, rolls), zero_is_one=True)
            return total

        return chain
    if isinstance(node, Neg):
        template.append("-" * node.count)
        body = _compile(node.body, template, notations)
        if node.count % 2:
            return lambda roller, rolls: -body(roller, rolls)
        return body
    if isinstance(node, Paren):
        template.append("(")
        inner = _compile(node.inner, template, notations)
        template.append(")")
        return inner
    raise TypeError(f"not a sum node: {node!r}")


def _compile_dice(node: DiceRoll, notations: list[str]) -> Total:
    """One roll: its count and sides computed now; a number too large refused when it is reached,
    before the roll (count, sides) or after it (the keep count), as the tree walk did. Its notation
    (`2D6KH1`) is appended to `notations`; a refused roll has none, and its echo is never shown."""
    try:
        times = value(node.times, zero_is_one=True)
        sides = IMPLICIT_SIDES if node.sides is None else value(node.sides, zero_is_one=True)
    except Refused as error:
        reason = error.reason
        notations.append("")

        def refused(roller: Roller, rolls: Rolls) -> int:
            raise Refused(reason)

        return refused
    keep = node.keep
    count_error: str | None = None
    count: int | None = None
    if keep is not None:
        try:
            count = value(node.keep_count, zero_is_one=True) if node.keep_count is not None else 1
        except Refused as error:
            count_error = error.reason
    notations.append(f"{times}D{sides}{keep}{count}" if count is not None else f"{times}D{sides}")

    def roll(roller: Roller, rolls: Rolls) -> int:
        if sides == 66:
            # Every die of xD66 is a D66 (tens and units), before BCDice's 200-dice rule applies.
            faces = [roller.roll_d66("N") for _ in range(max(times, 0))]
        else:
            faces = roller.roll_barabara(times, sides)
        if keep is None:
            rolled = RolledDice(times, sides, None, None, tuple(faces), sum(faces))
        elif count_error is not None:
            raise Refused(count_error)
        else:
            ordered = sorted(faces)
            kept = _filter(ordered, keep, max(count, 0))  # type: ignore[arg-type]
            rolled = RolledDice(times, sides, keep, count, tuple(ordered), sum(kept))
        rolls.append(rolled)
        return rolled.total

    return roll


def _filter(ordered: list[int], keep: str, count: int) -> list[int]:
    highest_first = ordered[::-1]
    if keep == KEEP_HIGHEST:
        return highest_first[:count]
    if keep == DROP_HIGHEST:
        return highest_first[count:]
    if keep == DROP_LOWEST:
        return ordered[count:]
    return ordered[:count]
