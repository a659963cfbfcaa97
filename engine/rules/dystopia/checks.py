"""判定: 3D6 + the stat + modifiers = 達成値 (the shared page's default; the seed leaves the dice to the
book), critical and fumble by C値/F値, and opposed checks (対決判定), printed in the BCDice style
`(3D6+4>=12) ＞ 11[3,4,4]+4 ＞ 15 ＞ 成功`.

C値/F値 (the seed): every effect on a check gives a resulting value — a change (`C-1`) from the
check's own value, a set value (`C16`); the lowest C and the highest F win. A fixed value (`C固定17`)
ignores every other change; among fixed values the lowest C / highest F wins. A check's own value is
the sheet's C値/F値, or its per-check override (`overrides.回避 = {F = 3}`).
The dice total ≥ C値 is a critical (a success whatever the target), ≤ F値 a fumble (a failure);
when both hold, the fumble (a reading: the seed does not say).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rng import Dice
from engine.rules.dystopia.state import CheckRecord, Sheet

CRITICAL, NORMAL, FUMBLE = 2, 1, 0
SETS, CHANGES, FIXED = "=", "+", "固定"


@dataclass(frozen=True)
class Check:
    """A check as typed: who, which stat, the modifier, the target, C/F effects."""

    actor: str | None
    stat: str
    modifier: int = 0
    target: int | None = None
    label: str = ""  # the check's name for per-check overrides (回避…); the stat when empty
    c_mods: tuple[tuple[str, int], ...] = ()
    f_mods: tuple[tuple[str, int], ...] = ()


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{value}" if value < 0 else ""


def threshold(
    own: int,
    mods: Sequence[tuple[str, int]],
    *,
    lowest: bool,
    own_fixed: int | None = None,
    fixed_wins: bool = True,
) -> int:
    """The C値 (lowest=True) or F値 of a check from its own value and the effects on it.

    「C値やF値を固定する効果については…この固定された値にはC値やF値を操作する効果は影響しない」 reads two
    ways when a fixed F7 meets another effect's F8: `fixed_wins` (the default) takes the fixed value over
    every other effect; without it the fixed value is one result among the others and the highest F
    (lowest C) of all of them applies."""
    pick = min if lowest else max
    fixed = [value for kind, value in mods if kind == FIXED]
    if own_fixed is not None:
        fixed.append(own_fixed)
    results = [own + value if kind == CHANGES else value for kind, value in mods if kind != FIXED]
    if fixed and fixed_wins:
        return pick(fixed)
    if fixed:
        return pick(fixed + results)
    return pick(results) if results else own


def thresholds(sheet: Sheet, check: Check, *, fixed_wins: bool = True) -> tuple[int, int]:
    own = sheet.overrides.get(check.label or check.stat, {})
    c = threshold(
        own.get("C", sheet.c), check.c_mods, lowest=True, own_fixed=own.get("C固定"), fixed_wins=fixed_wins
    )
    f = threshold(
        own.get("F", sheet.f), check.f_mods, lowest=False, own_fixed=own.get("F固定"), fixed_wins=fixed_wins
    )
    return max(c, 0), max(f, 0)


def grade(dice: Sequence[int], c: int, f: int) -> int:
    total = sum(dice)
    if total <= f:
        return FUMBLE
    return CRITICAL if total >= c else NORMAL


def roll_dice(count: int, dice: Dice) -> list[int]:
    return [dice.roll(6) for _ in range(count)]


def roll_check(
    sheet: Sheet, check: Check, dice: Dice, number: int, count: int = 3, *, fixed_wins: bool = True
) -> CheckRecord:
    """One check of `sheet`: the dice, the 達成値 and its thresholds, as the record kept for BP uses."""
    stat = sheet.stats.get(check.stat, 0)
    c, f = thresholds(sheet, check, fixed_wins=fixed_wins)
    faces = roll_dice(count, dice)
    modifier = stat + check.modifier
    return CheckRecord(
        number, sheet.name, check.stat, modifier, check.target, c, f, faces, sum(faces) + modifier
    )


def record_grade(record: CheckRecord) -> int:
    return grade(record.dice, record.c, record.f)


def succeeded(record: CheckRecord) -> bool | None:
    """Success against the target (None: no target). A critical succeeds and a fumble fails."""
    level = record_grade(record)
    if level != NORMAL:
        return level == CRITICAL
    if record.target is None:
        return None
    return record.total >= record.target


def outcome_word(record: CheckRecord) -> str:
    level = record_grade(record)
    if level == CRITICAL:
        return "クリティカル（自動成功）"
    if level == FUMBLE:
        return "ファンブル（自動失敗）"
    result = succeeded(record)
    return "" if result is None else "成功" if result else "失敗"


def bcdice(record: CheckRecord, extra: Sequence[int] = ()) -> str:
    """`(3D6+4>=12) ＞ 11[3,4,4]+4 ＞ 15 ＞ 成功`; `extra` are 起死回生's 2D6 already in the total."""
    count = len(record.dice)
    formula = f"{count}D6{_signed(record.modifier)}"
    if record.target is not None:
        formula += f">={record.target}"
    faces = ",".join(str(face) for face in record.dice)
    middle = f"{sum(record.dice)}[{faces}]{_signed(record.modifier)}"
    if extra:
        middle += f"+{sum(extra)}[{','.join(str(e) for e in extra)}]"
    text = f"({formula}) ＞ {middle} ＞ {record.total}"
    word = outcome_word(record)
    return f"{text} ＞ {word}" if word else text


def opposed_winner(active: CheckRecord, passive: CheckRecord) -> str:
    """The winner of an opposed check: a critical beats any other result, a fumble loses to any
    other; then the higher 達成値; a tie goes to the passive side (受動側優先)."""
    a, p = record_grade(active), record_grade(passive)
    if a != p:
        return active.actor if a > p else passive.actor
    return active.actor if active.total > passive.total else passive.actor
