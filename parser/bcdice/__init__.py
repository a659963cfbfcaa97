"""BCDice's system-independent command language as pure grammar: a command line in, ASTs out, no dice.

One module per command family, as BCDice has one file per common command
(`lib/bcdice/common_command/`): add_dice (`2D6+1`), barabara_dice (`3B6`), tally_dice (`6TY6`),
calc (`C(1+2)`), choice (`choice[a,b]`), d66_dice (`D66`), repeat (`x5 ...`), reroll_dice (`3R6>=5`),
upper_dice (`3U6[6]`). `parse_all` yields the parses of a line in the order BCDice tries the families;
the engine evaluates them in that order and the first that answers is the answer. Only the families
the line's leading token allows are tried (`dispatch`), and what they give is kept per line.

Every parser reads an NFKC-normalised line (full-width `２Ｄ６` is `2D6` here, which BCDice itself
refuses) and may raise `LimitExceeded` (see `limits`) instead of parsing something too big.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import regex

from parser.bcdice import (
    add_dice,
    barabara_dice,
    calc,
    choice,
    d66_dice,
    repeat,
    reroll_dice,
    tally_dice,
    upper_dice,
)
from parser.bcdice.dispatch import candidates
from parser.bcdice.lexer import first_word, tokenize
from parser.bcdice.limits import MAX_COMMAND_CHARS, LimitExceeded, too_long

Command = (
    add_dice.AddDice
    | barabara_dice.BarabaraDice
    | tally_dice.TallyDice
    | calc.Calc
    | choice.Choice
    | d66_dice.D66Dice
    | repeat.Repeat
    | reroll_dice.RerollDice
    | upper_dice.UpperDice
)

FAMILIES: tuple[Callable[[str], Command | None], ...] = (
    add_dice.parse,
    barabara_dice.parse,
    tally_dice.parse,
    calc.parse,
    choice.parse,
    d66_dice.parse,
    repeat.parse,
    reroll_dice.parse,
    upper_dice.parse,
)

# How a line of each family can begin (like BCDice's PREFIX_PATTERNs): a cheap test run before any
# parsing, and the test of whether a refused line was meant as a command at all. Choice and repeat
# read the whole line; the other families read only the first word, which must then be made of the
# characters their tokens use.
_SCANNED = regex.compile(r"[ \t\n\v\f\r]*S?choice|S?(?:repeat|rep|x)[0-9]+[ \t\n\v\f\r]", regex.IGNORECASE)
_PREFIX = regex.compile(
    r"""[ \t\n\v\f\r]*S?(?:
        [+\-(]*(?:[0-9]|D[(0-9])      # sums, xBy, xTYy, xRy, xUy, D66
      | C[+\-(]*[0-9]                 # C(1+2)
    )""",
    regex.IGNORECASE | regex.VERBOSE,
)
_WORD = regex.compile(r"[0-9A-Za-z+\-*/()\[\]<>=!?@]+")

__all__ = [
    "FAMILIES",
    "Command",
    "LimitExceeded",
    "clear_caches",
    "looks_like_command",
    "outcomes",
    "parse_all",
    "parses",
]


def looks_like_command(line: str) -> bool:
    """Whether the (normalised) line begins the way some BCDice command begins."""
    if _SCANNED.match(line) is not None:
        return True
    return _PREFIX.match(line) is not None and _WORD.fullmatch(first_word(line)) is not None


def parse_all(line: str) -> Iterator[Command]:
    """Every family's parse of the (normalised) line, in BCDice's order, lazily.

    Raises LimitExceeded for a line over MAX_COMMAND_CHARS, and whenever a parser meets a limit.
    """
    for outcome in outcomes(line):
        if isinstance(outcome, LimitExceeded):
            raise outcome.with_traceback(None)  # kept: without this each raise would add frames
        yield outcome


def outcomes(line: str) -> tuple[Command | LimitExceeded, ...]:
    """What `parse_all` yields, with a limit met kept in its place as the exception (not raised):
    the families that parse, in BCDice's order, up to and including the first that meets a limit."""
    if len(line) > MAX_COMMAND_CHARS:
        return (too_long(),)
    return _outcomes(line)


def clear_caches() -> None:
    """Forget every kept parse (benchmarks measure a stream of lines that never repeat)."""
    _outcomes.cache_clear()
    tokenize.cache_clear()


@lru_cache(maxsize=4096)
def _outcomes(line: str) -> tuple[Command | LimitExceeded, ...]:
    """Kept per line: threads repeat the same few commands (2D6, 1D100), and parses are pure, their
    trees immutable. A limit met is kept as the exception and raised again by each `parse_all`."""
    found: list[Command | LimitExceeded] = []
    for family in candidates(line):
        try:
            command = FAMILIES[family](line)
        except LimitExceeded as exceeded:
            found.append(exceeded)
            break
        if command is not None:
            found.append(command)
    return tuple(found)


def parses(line: str) -> bool:
    """Whether the (normalised) line is a BCDice command or a command too big to read.

    For post scanning: a line that merely mentions dice in passing is not a command.
    """
    if not looks_like_command(line):
        return False
    try:
        return next(parse_all(line), None) is not None
    except LimitExceeded:
        return True
