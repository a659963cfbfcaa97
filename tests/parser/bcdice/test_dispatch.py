"""Dispatch by leading token gives what trying every family in BCDice's order gives, line for line."""

from __future__ import annotations

import random

import pytest

from parser.bcdice import FAMILIES, LimitExceeded, clear_caches, outcomes, parse_all
from parser.bcdice.add_dice import AddDice
from parser.bcdice.barabara_dice import BarabaraDice
from parser.bcdice.calc import Calc
from parser.bcdice.choice import Choice
from parser.bcdice.d66_dice import D66Dice
from parser.bcdice.dispatch import candidates
from parser.bcdice.limits import MAX_NESTING, MAX_NUMBER_DIGITS
from parser.bcdice.repeat import Repeat
from parser.bcdice.reroll_dice import RerollDice
from parser.bcdice.tally_dice import TallyDice
from parser.bcdice.upper_dice import UpperDice


def _every_family(line: str) -> list[object]:
    """What BCDice does: each family in turn; a limit stops the line where it is met."""
    found: list[object] = []
    for parse in FAMILIES:
        try:
            command = parse(line)
        except LimitExceeded as exceeded:
            found.append(("limit", exceeded.reason))
            break
        if command is not None:
            found.append(command)
    return found


def _dispatched(line: str) -> list[object]:
    return [
        ("limit", outcome.reason) if isinstance(outcome, LimitExceeded) else outcome
        for outcome in outcomes(line)
    ]


HUGE = "9" * (MAX_NUMBER_DIGITS + 1)
DEEP = "(" * (MAX_NESTING + 1)
PIECES = [
    "",
    " ",
    "S",
    "s",
    "2",
    "10",
    "D",
    "d",
    "6",
    "66",
    "B",
    "T",
    "Y",
    "Z",
    "R",
    "U",
    "C",
    "c",
    "K",
    "H",
    "L",
    "M",
    "A",
    "X",
    "x",
    "I",
    "N",
    "+",
    "-",
    "*",
    "/",
    "(",
    ")",
    "[",
    "]",
    "@",
    ">=",
    "<",
    "=",
    "?",
    "choice",
    "rep",
    "repeat",
    "D66",
    HUGE,
    DEEP,
    "1D6",
    "3B6",
    "2R6",
    "3U6",
    "6TY6",
    "[a,b]",
    "a b",
]
SAMPLES = [
    "2D6",
    "S2D6>=7",
    "3B6>=4",
    "(1+2)B6",
    "6TY6",
    "6TZ6",
    "2R6[>4]>=4",
    "3U6[6]+1",
    "(2)U6[6]",
    "C(1+2)",
    "sc1/2R",
    "choice[a,b]",
    "Schoice a b",
    "D66",
    "D66A",
    "SD66D",
    "D20",
    "D66+1",
    "x3 2D6",
    "rep2 3B6",
    "(" + HUGE + ")B6",
    "(1D" + HUGE + ")B6",
    HUGE + "B6",
    DEEP + "1)B6",
    "((1)",
    "(1D6)D6B6",
    " x2 1D6",
    "S",
    "",
    "+1D6",
    "--1D6",
    "CHOICE",
    "x",
    "R3 1D6",
    "2B",
    "(2",
    "2D6 comment",
    "S 2D6",
]


@pytest.mark.parametrize("line", SAMPLES)
def test_dispatch_agrees_with_every_family_in_order(line: str) -> None:
    assert _dispatched(line) == _every_family(line)


def test_dispatch_agrees_on_many_generated_lines() -> None:
    generator = random.Random(18)
    for _ in range(4000):
        line = "".join(generator.choice(PIECES) for _ in range(generator.randint(1, 7)))
        assert _dispatched(line) == _every_family(line), line


@pytest.mark.parametrize(
    ("line", "families"),
    [
        ("2D6", [AddDice]),
        ("3B6", [BarabaraDice]),
        ("(1+2)B6", [BarabaraDice]),
        ("6TY6", [TallyDice]),
        ("2R6>=4", [RerollDice]),
        ("3U6[6]", [UpperDice]),
        ("C1", [Calc]),
        ("choice[C1,2]", [Choice]),
        ("D66", [D66Dice]),
        ("D6", [AddDice]),
        ("x2 3B6", [Repeat]),
    ],
)
def test_each_family_is_reached_from_its_leading_token(line: str, families: list[type]) -> None:
    assert [type(command) for command in parse_all(line)] == families


def test_only_the_families_a_leading_token_allows_are_tried() -> None:
    assert len(candidates("3B6")) == 2  # AddDice first (it may meet a limit first), then xBy
    assert len(candidates("2D6+1")) == 1
    assert candidates("こんにちは") == candidates("") == ()


def test_a_kept_limit_is_raised_afresh_for_each_reading() -> None:
    line = DEEP + "1D6" + ")" * (MAX_NESTING + 1)
    errors = []
    for _ in range(3):
        with pytest.raises(LimitExceeded) as raised:
            next(parse_all(line))
        errors.append(raised.value)
    assert all(len(list(_frames(error))) == len(list(_frames(errors[0]))) for error in errors)


def test_kept_parses_do_not_leak_between_lines() -> None:
    clear_caches()
    first = next(parse_all("2D6"))
    assert next(parse_all("2D6")) is first  # kept
    assert next(parse_all("s2D6")) != first and next(parse_all("s2D6")).secret
    assert next(parse_all("2D6")).secret is False
    clear_caches()
    assert next(parse_all("2D6")) == first


def _frames(error: BaseException):
    tb = error.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next
