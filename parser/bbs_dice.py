"""The BBS dice habit of seed 000: `diceNdM=` anywhere in a post line, N 1–10 dice of M 1–9999 sides.

Full-width and half-width forms, any case (`ｄｉｃｅ２ｄ４７＝`, `DICE2D47=`) are the same command;
lines quoted from other posts (starting with `>` or `＞` but not a `>>N` anchor) are not commands.
Out-of-range commands are kept as `BbsDiceError` so the player is told why nothing was rolled.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

MAX_COUNT = 10
MAX_SIDES = 9999

# Digits are matched generously (then range-checked) so `dice99d6=` — or a count of 20 digits — is an
# error, not silence; a number longer than _DIGITS is out of range without being converted.
_DICE = regex.compile(r"(?<![A-Za-z])dice([0-9]+)d([0-9]+)=", regex.IGNORECASE)
# The command written nearly on a line of its own (`dice1d6` without its =, `dice 1d6=` with spaces):
# told how to write it, not left silent (in a sentence, `dice2d47で決めよう` is chat).
# Numbers of any script (\p{N}: ፩, ①, ٣ stay themselves under NFKC), so that such a line is answered too.
_NEAR = regex.compile(r"\s*dice[ \t]*(\p{N}+)[ \t]*d[ \t]*(\p{N}+)(?:[ \t]*=)?\s*", regex.IGNORECASE)
_DIGITS = 8
_ANCHOR_START = regex.compile(r">>[0-9]")


@dataclass(frozen=True)
class BbsDice:
    count: int
    sides: int
    line: int  # 0-based line of the post body the command stood on

    @property
    def canonical(self) -> str:
        return f"dice{self.count}d{self.sides}="


@dataclass(frozen=True)
class BbsDiceError:
    text: str  # the command as written, normalised
    line: int
    reason: str  # Japanese, shown to the player


def normalize(text: str) -> str:
    """NFKC: full-width letters, digits and signs become ASCII (the raw text is kept elsewhere)."""
    return unicodedata.normalize("NFKC", text)


def is_quote(line: str) -> bool:
    """A line quoted from another post: starts with `>` (after NFKC), but a `>>N` anchor is not a quote."""
    stripped = normalize(line).lstrip()
    return stripped.startswith(">") and not _ANCHOR_START.match(stripped)


def _shown(command: str, width: int = 32) -> str:
    """A refused command as the answer quotes it: a 4,400-digit count is not echoed whole."""
    return command if len(command) <= width else f"{command[: width - 8]}…{command[-6:]}"


def find_bbs_dice(body: str) -> list[BbsDice | BbsDiceError]:
    """Every `diceNdM=` of a post body in reading order, quoted lines skipped."""
    found: list[BbsDice | BbsDiceError] = []
    for number, raw_line in enumerate(body.split("\n")):
        if is_quote(raw_line):
            continue
        text = normalize(raw_line)
        near = _NEAR.fullmatch(text)
        if near is not None and not _DICE.search(text):
            if near[1].isascii() and near[2].isascii():  # \p{N} in ASCII is 0-9
                reason = (
                    f"ダイスを振るには dice{near[1][:4]}d{near[2][:5]}= のように = まで続けて書いてください"
                )
            else:
                reason = "ダイスの個数と面数は数字（0～9）で書いてください（例: dice2d6=）"
            found.append(BbsDiceError(_shown(text.strip().lower()), number, reason))
            continue
        for match in _DICE.finditer(text):
            count, sides = (int(digits) if len(digits) <= _DIGITS else 0 for digits in (match[1], match[2]))
            if not 1 <= count <= MAX_COUNT or not 1 <= sides <= MAX_SIDES:
                reason = f"ダイスは{MAX_COUNT}個まで、面数は1～{MAX_SIDES}までです"
                found.append(BbsDiceError(_shown(match[0].lower()), number, reason))
            else:
                found.append(BbsDice(count, sides, number))
    return found
