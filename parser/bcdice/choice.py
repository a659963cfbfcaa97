"""Choice `choice[a,b]` / `choice(a,b)` / `choice a b`, `choiceN` to pick N (BCDice's Choice).

Read like BCDice's StringScanner: the whole line, not only its first word. Bracket and parenthesis
lists are split at commas and end at the first closing bracket after the last comma; a space list
runs to the end of the line. Items are stripped, empty ones dropped; a single item `A-F`, `c-g` or
`3-10` stands for the whole range (kept as a range here: `choice[1-99999]` must not build a list).
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from parser.bcdice.lexer import RUBY_SPACE, to_int

BRACKET, PAREN, SPACE = "[", "(", " "
_CLOSE = {BRACKET: "]", PAREN: ")"}
_RUBY_STRIP = RUBY_SPACE + "\0"

_HEAD = regex.compile(r"[ \t\n\v\f\r]*(S?)choice([0-9]*)", regex.IGNORECASE)
_SPACES = regex.compile(r"[ \t\n\v\f\r]+")
_NUM_RANGE = regex.compile(r"([0-9]+)-([0-9]+)")
_CHAR_RANGE = regex.compile(r"([a-z])-([a-z])|([A-Z])-([A-Z])")


@dataclass(frozen=True, slots=True)
class ItemRange:
    """`first-last` of numbers or of letters of one case; `size` items without listing them."""

    first: int | str
    last: int | str

    @property
    def size(self) -> int:
        if isinstance(self.first, int) and isinstance(self.last, int):
            return self.last - self.first + 1
        return ord(str(self.last)) - ord(str(self.first)) + 1

    def items(self) -> tuple[str, ...]:
        if isinstance(self.first, int) and isinstance(self.last, int):
            return tuple(str(n) for n in range(self.first, self.last + 1))
        return tuple(chr(code) for code in range(ord(str(self.first)), ord(str(self.last)) + 1))


@dataclass(frozen=True, slots=True)
class Choice:
    secret: bool
    takes: int
    delimiter: str  # BRACKET, PAREN or SPACE
    items: tuple[str, ...] | ItemRange

    @property
    def size(self) -> int:
        return self.items.size if isinstance(self.items, ItemRange) else len(self.items)


def parse(command: str) -> Choice | None:
    head = _HEAD.match(command)
    if head is None:
        return None
    digits = head[2].lstrip("0") if head[2] else "1"
    if digits == "":
        return None  # choice0
    # More digits than any line can hold items: it can never be satisfied.
    takes = int(digits) if len(digits) <= 6 else 10**6
    pos = head.end()
    opener = command[pos : pos + 1]
    if opener in (BRACKET, PAREN):
        delimiter, pos = opener, pos + 1
    else:
        spaces = _SPACES.match(command, pos)
        if spaces is None:
            return None
        delimiter, pos = SPACE, spaces.end()
    raw_items = _split(command, pos, delimiter)
    if raw_items is None:
        return None
    items = [item for item in (raw.strip(_RUBY_STRIP) for raw in raw_items) if item]
    listed: tuple[str, ...] | ItemRange = tuple(items)
    if len(items) == 1:
        shorthand = _range(items[0])
        if shorthand is None:
            return None
        listed = shorthand
    choice = Choice(bool(head[1]), takes, delimiter, listed)
    if choice.size == 0 or choice.size < takes:
        return None
    return choice


def _split(command: str, pos: int, delimiter: str) -> list[str] | None:
    items: list[str] = []
    if delimiter == SPACE:
        while (gap := _SPACES.search(command, pos)) is not None:
            items.append(command[pos : gap.start()])
            pos = gap.end()
        newline = command.find("\n", pos)
        items.append(command[pos : newline if newline >= 0 else len(command)])
        return items
    while (comma := command.find(",", pos)) >= 0:
        items.append(command[pos:comma])
        pos = comma + 1
    close = command.find(_CLOSE[delimiter], pos)
    if close < 0:
        return None
    items.append(command[pos:close])
    return items


def _range(item: str) -> ItemRange | None:
    numbers = _NUM_RANGE.fullmatch(item)
    if numbers is not None:
        first, last = to_int(numbers[1]), to_int(numbers[2])
        return ItemRange(first, last) if first <= last else None
    letters = _CHAR_RANGE.fullmatch(item)
    if letters is not None:
        first_char = letters[1] or letters[3]
        last_char = letters[2] or letters[4]
        return ItemRange(first_char, last_char) if first_char <= last_char else None
    return None
