"""The one reader of the numbers players write, for every grammar, sheet and setting.

A number is read after NFKC (full-width ０-９ are digits, as everywhere), then only ASCII 0-9 count:
other scripts' digits (፩ ᧚ 𐩀 ٣), superscripts that NFKC does not map, signs other than one leading
`+`/`-` (when the field may be signed) are refused with the reason — never handed to `int()`, which
raises on some of them and on numbers of more than 4300 digits. Each field has a length cap (digits
after leading zeros), so a post cannot make the bot build a huge integer.

`read_number` answers an `int` or a `NotANumber` with a short Japanese reason for the player;
`number_or_error` is the same for callers whose refusals are `ValueError`s (settings). Patterns that
find numbers inside a line use `DIGITS` (ASCII digits; `\\d` matches every script's digits).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

DIGITS = "[0-9]"  # for patterns: `\d` would match ٣ and ፩ too
MAX_DIGITS = 9  # the default cap: no count, size or coordinate of these games is longer
_SHOWN = 12  # characters of a refused field quoted back in the reason


@dataclass(frozen=True)
class NotANumber:
    """A field that is not a number the reader accepts: `reason` is Japanese, for the player."""

    reason: str


def read_number(
    text: str,
    *,
    what: str = "数",
    digits: int = MAX_DIGITS,
    low: int | None = None,
    high: int | None = None,
    signed: bool = False,
) -> int | NotANumber:
    """The number `text` holds (spaces around it allowed), or why it is not one.

    `what` names the field in the reason (「予想」, 「座標」); `digits` caps its length; `low`/`high`
    bound its value; `signed` allows one leading + or -."""
    value = unicodedata.normalize("NFKC", text).strip()
    shown = value if len(value) <= _SHOWN else value[:_SHOWN] + "…"
    sign = 1
    if signed and value[:1] in ("+", "-"):
        sign, value = (-1 if value[0] == "-" else 1), value[1:].lstrip()
    if not value:
        return NotANumber(f"{what}がありません")
    if not value.isascii() or not value.isdigit():
        return NotANumber(f"{what}「{shown}」は数字（0～9）で書いてください")
    if len(value.lstrip("0")) > digits:
        return NotANumber(f"{what}「{shown}」は大きすぎます（{digits}桁まで）")
    number = sign * int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        return NotANumber(f"{what}は{_range(low, high)}で書いてください")
    return number


def number_or_error(text: str, **options) -> int:
    """`read_number`, raising ValueError with the reason when the field is not a number."""
    number = read_number(text, **options)
    if isinstance(number, NotANumber):
        raise ValueError(number.reason)
    return number


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low}～{high}"
    return f"{low}以上" if low is not None else f"{high}以下"
