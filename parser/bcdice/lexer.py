"""The tokens BCDice's common commands are written in, and a cursor the family parsers share.

As in BCDice, a command is read only up to its first whitespace (what follows is a comment), runs of
ASCII digits are numbers, runs of `< > ! =` are one comparison operator (normalised the way BCDice
does, by substring, so `=>` is `>=` and `<>` is `!=`), and every other character is a token of its
own, upper-cased (`d` and `D` are the same letter).

The tokens come in one scan (one regular expression over the word); a token list carries the tuple
of its kinds, which is all a `Cursor` looks at until it accepts a token.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from parser.bcdice.limits import MAX_NESTING, MAX_NUMBER_DIGITS, too_deep, too_many_digits

NUMBER = "NUMBER"
CMP = "CMP"

# Ruby's `\s`: the separators of `String#split(" ")` and of the scanners of choice and repeat.
RUBY_SPACE = " \t\n\v\f\r"

_TOKEN = re.compile(r"[0-9]+|[<>!=]+|.", re.DOTALL)
_FIRST_WORD = re.compile(r"[ \t\n\v\f\r]*([^ \t\n\v\f\r]*)")
_END = ""  # the kind after the last token: no token has it, so `accept` needs no bounds check


class Token(NamedTuple):
    kind: str  # NUMBER, CMP, or the upper-cased character itself ("+", "D", "[", ...)
    text: str  # the characters as written (digits kept as text until a parser accepts them)
    op: str | None = None  # for CMP: "<=", ">=", "!=", "<", ">", "==", or None when unrecognisable


def first_word(source: str) -> str:
    """Ruby's `source.split(" ", 2).first`: leading whitespace skipped, cut at the next whitespace."""
    return _FIRST_WORD.match(source)[1]  # type: ignore[index]  # the pattern matches any string


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


class Tokens(tuple):
    """The tokens of a command, with `kinds`: each token's kind, then `_END`."""

    kinds: tuple[str, ...]


@lru_cache(maxsize=512)
def tokenize(source: str) -> Tokens:
    """The tokens of the command part of `source` (its first whitespace-separated word).

    Cached: BCDice's families each read the same line in turn.
    """
    known = _KNOWN
    tokens = [known.get(text) or _token(text) for text in _TOKEN.findall(first_word(source))]
    listed = Tokens(tokens)
    listed.kinds = (*[token.kind for token in tokens], _END)
    return listed


def _token(text: str) -> Token:
    first = text[0]
    if "0" <= first <= "9":
        token = Token(NUMBER, text)
    elif first in "<>!=":
        token = Token(CMP, text, comparison_operator(text))
    else:
        token = Token(text.upper(), text)
    if len(text) <= _KNOWN_LENGTH and len(_KNOWN) < _KNOWN_KEPT:
        _KNOWN[text] = token
    return token


# Tokens are immutable, and commands are made of the same few (`D`, `6`, `+`, `>=`): one of each is
# kept. Any text may come from a post, so only short ones, and only so many.
_KNOWN: dict[str, Token] = {}
_KNOWN_LENGTH = 6
_KNOWN_KEPT = 8192


def to_int(digits: str) -> int:
    """A number token's value, refusing numbers with more than MAX_NUMBER_DIGITS significant digits."""
    if len(digits.lstrip("0")) > MAX_NUMBER_DIGITS:
        raise too_many_digits()
    return int(digits)


class Cursor:
    """A position in a token list, with the paren depth the recursive parsers have reached."""

    __slots__ = ("_depth", "_kinds", "_pos", "_tokens")

    def __init__(self, tokens: Tokens | tuple[Token, ...] | list[Token]) -> None:
        self._tokens = tokens
        kinds = getattr(tokens, "kinds", None)
        self._kinds: tuple[str, ...] = kinds if kinds is not None else (*(t.kind for t in tokens), _END)
        self._pos = 0
        self._depth = 0

    def peek(self) -> Token | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def peek_kind(self, offset: int = 0) -> str | None:
        index = self._pos + offset
        return self._tokens[index].kind if index < len(self._tokens) else None

    def at_end(self) -> bool:
        return self._kinds[self._pos] == _END

    def accept(self, kind: str) -> Token | None:
        """Consume and return the next token if it is of `kind`."""
        pos = self._pos
        if self._kinds[pos] == kind:
            self._pos = pos + 1
            return self._tokens[pos]
        return None

    def accept_either(self, first: str, second: str) -> str | None:
        """Consume the next token if it is of kind `first` or `second`; return the kind consumed."""
        pos = self._pos
        kind = self._kinds[pos]
        if kind in (first, second):
            self._pos = pos + 1
            return kind
        return None

    def count_minus(self) -> int:
        """Consume a run of `+` and `-` signs; return how many minus signs it held."""
        kinds, pos, minus = self._kinds, self._pos, 0
        while True:
            kind = kinds[pos]
            if kind == "-":
                minus += 1
            elif kind != "+":
                self._pos = pos
                return minus
            pos += 1

    def accept_number(self) -> int | None:
        pos = self._pos
        if self._kinds[pos] == NUMBER:
            self._pos = pos + 1
            return to_int(self._tokens[pos].text)
        return None

    def accept_cmp(self) -> str | None:
        """Consume a comparison operator; None (nothing consumed) if absent or unrecognisable."""
        pos = self._pos
        if self._kinds[pos] != CMP:
            return None
        op = self._tokens[pos].op
        if op is not None:
            self._pos = pos + 1
        return op

    def starts_term(self) -> bool:
        return self._kinds[self._pos] in ("(", NUMBER)

    def enter(self) -> None:
        """Going one parenthesis deeper; refuses past MAX_NESTING."""
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise too_deep()

    def leave(self) -> None:
        self._depth -= 1
