"""Full-width input (beyond BCDice, which ignores `１Ｄ６`) is the same command; the raw text is kept."""

from __future__ import annotations

import pytest

from engine.dice.bcdice import evaluate
from engine.rng import RecordedDice


@pytest.mark.parametrize(
    ("command", "normalized", "expected"),
    [
        ("２Ｄ６＞＝７", "2D6>=7", "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
        ("ｓ２ｄ６", "s2d6", "(2D6) ＞ 7[3,4] ＞ 7"),
        ("２Ｄ６　判定", "2D6 判定", "(2D6) ＞ 7[3,4] ＞ 7"),
        ("２Ｂ６＞３", "2B6>3", "(2B6>3) ＞ 3,4 ＞ 成功数1"),
    ],
)
def test_full_width_commands(command: str, normalized: str, expected: str) -> None:
    result = evaluate(command, RecordedDice([(6, 3), (6, 4)]))
    assert result.text == expected
    assert result.command == command
    assert result.normalized == normalized


def test_full_width_choice_items_are_normalised() -> None:
    result = evaluate("ｃｈｏｉｃｅ［東京，大阪］", RecordedDice([(2, 2)]))
    assert result.text == "(choice[東京,大阪]) ＞ 大阪"
