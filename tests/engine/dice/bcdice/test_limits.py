"""Hostile input: every answer comes quickly, from a limit, never from a crash or a runaway loop."""

from __future__ import annotations

import pytest

from engine.dice.bcdice import evaluate
from engine.rng import SeededDice
from parser.bcdice.limits import MAX_COMMAND_CHARS, MAX_NESTING


def answer(command: str):
    return evaluate(command, SeededDice(b"key", "limits"))


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("10001D6", "ダイスが多すぎます"),
        ("1000000000D6", "ダイスが多すぎます"),
        ("9" * 101 + "D6", "数値が大きすぎます"),
        ("C(" + "*".join(["9" * 60] * 3) + ")", "数値が大きすぎます"),
        ("(" * (MAX_NESTING + 1) + "1D6" + ")" * (MAX_NESTING + 1), "カッコの入れ子が深すぎます"),
        ("1D6 " + "あ" * MAX_COMMAND_CHARS, "コマンドの行が長すぎます"),
        ("x100 200D6", "ダイスが多すぎます"),
        ("99999U20000[5]", "ダイスが多すぎます"),
        ("2R1[=1]>=1", "ダイスが多すぎます"),
        ("3B(6/0)", "ゼロ除算"),
    ],
)
def test_refusals_name_their_reason(command: str, reason: str) -> None:
    result = answer(command)
    assert result.refused
    assert reason in result.text
    assert " ＞ " in result.text


def test_refused_lines_that_are_not_commands_stay_silent() -> None:
    assert answer("(" * 100 + " こんにちは") is None
    assert answer("あ" * (MAX_COMMAND_CHARS + 1)) is None
    assert answer("1人目です" + "あ" * MAX_COMMAND_CHARS) is None


def test_deep_but_allowed_nesting_and_long_chains_are_answered() -> None:
    nested = answer("(" * MAX_NESTING + "1D6" + ")" * MAX_NESTING)
    assert not nested.refused and nested.text.startswith("(" * (MAX_NESTING + 1))
    chain = answer("1D6" + "+1" * 900)
    assert chain.text.endswith(str(chain.total)) and chain.total >= 901
    assert answer("-" * 1500 + "1D6").total in range(1, 7)


def test_many_rolls_are_fine_up_to_the_limit() -> None:
    result = answer("x50 200D6")
    assert len(result.rolls) == 10000
    assert result.text.count("#") == 50
