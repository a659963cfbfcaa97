"""The tokens BCDice's common commands are written in, and a cursor the family parsers share.

As in BCDice, a command is read only up to its first whitespace (what follows is a comment), runs of
ASCII digits are numbers, runs of `< > ! =` are one comparison operator (normalised the way BCDice
does, by substring, so `=>` is `>=` and `<>` is `!=`), and every other character is a token of its
own, upper-cased (`d` and `D` are the same letter).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import regex

from parser.bcdice.limits import MAX_NESTING, MAX_NUMBER_DIGITS, too_deep, too_many_digits

NUMBER = "NUMBER"
CMP = "CMP"

# Ruby's `\s`: the separators of `String#split(" ")` and of the scanners of choice and repeat.
RUBY_SPACE = " \t\n\v\f\r"

_TOKEN = regex.compile(r"[0-9]+|[<>!=]+|.", regex.DOTALL)


class Token(NamedTuple):
    kind: str  # NUMBER, CMP, or the upper-cased character itself ("+", "D", "[", ...)
    text: str  # the characters as written (digits kept as text until a parser accepts them)
    op: str | None = None  # for CMP: "<=", ">=", "!=", "<", ">", "==", or None when unrecognisable


def first_word(source: str) -> str:
    """Ruby's `source.split(" ", 2).first`: leading whitespace skipped, cut at the next whitespace."""
    stripped = source.lstrip(RUBY_SPACE)
    for index, char in enumerate(stripped):
        if char in RUBY_SPACE:
            return stripped[:index]
    return stripped


def comparison_operator(text: str) -> str | None:
    """BCDice's `Normalize.comparison_operator`: the first pattern found anywhere in the run wins."""
    if "<=" in text or "=<" in text:
        return "<="
    if ">=" in text or "=>" in text:
        return ">="
    if "<>" in text or "!=" in text or "=!" in text:
        return "!="
    if "<" in text:
        return "<"
    if ">" in text:
        return ">"
    if "=" in text:
        return "=="
    return None


@lru_cache(maxsize=512)
def tokenize(source: str) -> tuple[Token, ...]:
    """The tokens of the command part of `source` (its first whitespace-separated word).

    Cached: BCDice's families each read the same line in turn.
    """
    tokens: list[Token] = []
    for match in _TOKEN.finditer(first_word(source)):
        text = match[0]
        first = text[0]
        if "0" <= first <= "9":
            tokens.append(Token(NUMBER, text))
        elif first in "<>!=":
            tokens.append(Token(CMP, text, comparison_operator(text)))
        else:
            tokens.append(Token(text.upper(), text))
    return tuple(tokens)


def to_int(digits: str) -> int:
    """A number token's value, refusing numbers with more than MAX_NUMBER_DIGITS significant digits."""
    if len(digits.lstrip("0")) > MAX_NUMBER_DIGITS:
        raise too_many_digits()
    return int(digits)


class Cursor:
    """A position in a token list, with the paren depth the recursive parsers have reached."""

    __slots__ = ("_depth", "_pos", "_tokens")

    def __init__(self, tokens: tuple[Token, ...] | list[Token]) -> None:
        self._tokens = tokens
        self._pos = 0
        self._depth = 0

    def peek(self) -> Token | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def peek_kind(self, offset: int = 0) -> str | None:
        index = self._pos + offset
        return self._tokens[index].kind if index < len(self._tokens) else None

    def at_end(self) -> bool:
        return self._pos >= len(self._tokens)

    def accept(self, kind: str) -> Token | None:
        """Consume and return the next token if it is of `kind`."""
        if self._pos < len(self._tokens) and self._tokens[self._pos].kind == kind:
            token = self._tokens[self._pos]
            self._pos += 1
            return token
        return None

    def accept_number(self) -> int | None:
        token = self.accept(NUMBER)
        return to_int(token.text) if token is not None else None

    def accept_cmp(self) -> str | None:
        """Consume a comparison operator; None (nothing consumed) if absent or unrecognisable."""
        token = self.peek()
        if token is None or token.kind != CMP or token.op is None:
            return None
        self._pos += 1
        return token.op

    def starts_term(self) -> bool:
        return self.peek_kind() in ("(", NUMBER)

    def enter(self) -> None:
        """Going one parenthesis deeper; refuses past MAX_NESTING."""
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise too_deep()

    def leave(self) -> None:
        self._depth -= 1
