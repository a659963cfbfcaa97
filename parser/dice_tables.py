"""Which lines of a post are dice: BBS `diceNdM=`, BCDice command lines, and labelled dice tables.

A labelled table is a block of lines (blocks are separated by blank or quoted lines, and a new
`【name】` line starts a new block) holding exactly one dice command and either a `【name】` line or
outcome lines, with any free lines (`基準『東京』`) in between:

    【通常戦闘ダイス】          ← optional name (text after it is read as a line of its own)
    基準『東京』                ← free line, kept as a note
    dice1d5=                    ← the one command: `diceNdM=` or a BCDice command like `1D5`
    1.勝利                      ← outcome lines: `1.勝利` `1～4.勝利` `1〜4.勝利` `5-6.敗北`
    2～3:敗北                      `7:手を組む`, full-width digits, BCDice's table form `出目:結果`

A block with several commands, or with a command and neither name nor outcomes, is just commands.
Everything is read NFKC-normalised; raw lines are kept for evaluation and echo.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import regex

from parser.bbs_dice import BbsDice, BbsDiceError, find_bbs_dice, is_quote, normalize
from parser.bcdice import parses

_NAME = regex.compile(r"【([^】]+)】(.*)")
_OUTCOME = regex.compile(r"([0-9]{1,9})(?:\s*[~〜\-ー―‐−]\s*([0-9]{1,9}))?\s*[.:、)]\s*(\S.*)")


@dataclass(frozen=True)
class BcdiceLine:
    """A line that starts with a BCDice command; `text` is the line as written, leading spaces cut."""

    text: str
    line: int


@dataclass(frozen=True)
class Outcome:
    """One outcome line: faces `first`..`last` (equal for a single face) give `text`."""

    first: int
    last: int
    text: str
    line: int


TableCommand = BbsDice | BbsDiceError | BcdiceLine


@dataclass(frozen=True)
class DiceTable:
    name: str | None
    notes: tuple[str, ...]
    command: TableCommand
    outcomes: tuple[Outcome, ...]
    line: int  # first line of the block


PostDice = BbsDice | BbsDiceError | BcdiceLine | DiceTable


@dataclass
class _Block:
    first_line: int
    name: str | None = None
    notes: list[str] = field(default_factory=list)
    commands: list[TableCommand] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def dice(self) -> list[PostDice]:
        if len(self.commands) == 1 and (self.name is not None or self.outcomes):
            notes, outcomes = tuple(self.notes), tuple(self.outcomes)
            return [DiceTable(self.name, notes, self.commands[0], outcomes, self.first_line)]
        return list(self.commands)


def find_post_dice(body: str, limit: int | None = None) -> list[PostDice]:
    """The dice of a post in reading order, a table counting as one; at most `limit` of them.

    Reading stops as soon as more than `limit` are certain, so a post with thousands of commands
    costs little more than one with `limit`.
    """
    found: list[PostDice] = []
    for block in _blocks(body, limit):
        found.extend(block.dice())
        if limit is not None and len(found) >= limit:
            return found[:limit]
    return found


def command_lines(line: str, number: int) -> list[TableCommand]:
    """The commands one post line holds: a BCDice command starting it, then any `diceNdM=` in it."""
    return _commands(line, normalize(line), number)


def parse_outcome(line: str, number: int) -> Outcome | None:
    """The outcome a line names (`1～4.勝利`), or None if it is no outcome line."""
    return _outcome(normalize(line).strip(), number)


# A command cut by a space after its operator (`2D6>= 7`, `3D6+ 1`): no command as written, so it would
# be silence; the line is told the command it nearly is.
_CUT_COMMAND = regex.compile(r"(\S*?(?:<=|>=|=<|=>|<>|!=|<|>|=|\+|-|\*|/))\s+([0-9]{1,6})(?![0-9])")


def _commands(line: str, text: str, number: int) -> list[TableCommand]:
    """`command_lines` with the line's NFKC form `text` already at hand."""
    found: list[TableCommand] = []
    stripped = line.lstrip()
    if stripped and parses(text.lstrip()):
        found.append(BcdiceLine(stripped, number))
    elif stripped and (cut := _CUT_COMMAND.match(text.lstrip())) and parses(joined := cut[1] + cut[2]):
        reason = f"空白で式が切れています。{joined.upper()} のように続けて書いてください"
        found.append(BbsDiceError(cut[0], number, reason))
    if "dice" in text.lower():
        found.extend(replace(dice, line=number) for dice in find_bbs_dice(line))
    return found


def _outcome(text: str, number: int) -> Outcome | None:
    match = _OUTCOME.fullmatch(text)
    if match is None:
        return None
    first = int(match[1])
    last = int(match[2]) if match[2] is not None else first
    return Outcome(first, last, match[3].strip(), number)


def _blocks(body: str, limit: int | None) -> Iterator[_Block]:
    """The blocks of a post; a block with more than `limit` commands ends early (it is no table)."""
    block: _Block | None = None
    for number, raw in enumerate(body.split("\n")):
        line = raw.rstrip("\r")
        text = normalize(line).strip()
        if not text or (text.startswith(">") and is_quote(line)):
            if block is not None:
                yield block
            block = None
            continue
        name = _NAME.fullmatch(line.strip())
        if name is not None:
            if block is not None:
                yield block
            block = _Block(number, name=name[1].strip())
            line = name[2]
            text = normalize(line).strip()
            if not text:
                continue
        if block is None:
            block = _Block(number)
        _classify(block, line, text, number)
        if limit is not None and len(block.commands) > limit:
            yield block
            return
    if block is not None:
        yield block


def _classify(block: _Block, line: str, text: str, number: int) -> None:
    commands = _commands(line, text, number)
    if commands:
        block.commands.extend(commands)
        return
    outcome = _outcome(text, number)
    if outcome is not None:
        block.outcomes.append(outcome)
    else:
        block.notes.append(line.strip())
