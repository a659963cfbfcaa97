from __future__ import annotations

import pytest

from parser.bcdice import LimitExceeded, looks_like_command, parse_all, parses
from parser.bcdice.add_dice import AddDice
from parser.bcdice.calc import Calc
from parser.bcdice.choice import Choice
from parser.bcdice.limits import MAX_COMMAND_CHARS, MAX_NESTING
from parser.bcdice.repeat import Repeat


def test_families_come_in_bcdice_order() -> None:
    assert [type(c) for c in parse_all("C1")] == [Calc]
    assert [type(c) for c in parse_all("2D6")] == [AddDice]
    assert [type(c) for c in parse_all("x2 choice[a,b]")] == [Repeat]
    assert [type(c) for c in parse_all("choice[a,b]")] == [Choice]


@pytest.mark.parametrize(
    "line",
    [
        "2D6",
        " 2d6",
        "s1d6",
        "-1D6",
        "(2+3)D6",
        "D20",
        "D(5)",
        "3B6",
        "C(1+2)",
        "c-1",
        "choice[a,b]",
        "Schoice a b",
        "D66",
        "x5 1D6",
        "rep3 1D6",
        "2R6>=3",
        "3U6[6]",
        "6TY6",
    ],
)
def test_command_prefixes(line: str) -> None:
    assert looks_like_command(line)


@pytest.mark.parametrize(
    "line", ["こんにちは", "Dice", "((( hello", "cat", "これは2D6", "", "1人目です", "3.逃走", "x5", "choose"]
)
def test_not_command_prefixes(line: str) -> None:
    assert not looks_like_command(line)


def test_parses_tells_commands_from_chat() -> None:
    assert parses("2D6 判定")
    assert parses("(" * (MAX_NESTING + 1) + "1D6" + ")" * (MAX_NESTING + 1))  # refused, but a command
    assert not parses("3人で行こう")
    assert not parses("134")


def test_overlong_lines_raise() -> None:
    with pytest.raises(LimitExceeded, match="長すぎ"):
        next(parse_all("1D6 " + "あ" * MAX_COMMAND_CHARS))
