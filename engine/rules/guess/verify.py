"""Checking a 数当て period against its key: the target is the first d`sides` face of the stream
`guess/target` under the period key, each guess's 差 is its distance from that target, and 当たり names
exactly the closest guesses. `read_period` reads the report as `GuessRuleset.resolve` writes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from engine.rng import SeededDice

PURPOSE = "guess/target"
_TARGET = regex.compile(r"^目標の数: (\d+)（1D(\d+)）$")
_GUESS = regex.compile(r"^(.+): (\d+)（差 (\d+)）$")
_WINNERS = "当たり: "


def read_period(lines: Sequence[str]) -> dict[str, Any]:
    """The target, the guesses with their 差, and the winners, as posted."""
    result: dict[str, Any] = {"guesses": [], "winners": [], "unreadable": []}
    for text in (raw.strip() for raw in lines):
        if match := _TARGET.match(text):
            result["target"], result["sides"] = int(match[1]), int(match[2])
        elif match := _GUESS.match(text):
            result["guesses"].append(
                {"player": match[1], "guess": int(match[2]), "difference": int(match[3])}
            )
        elif text.startswith(_WINNERS):
            result["winners"] = text.removeprefix(_WINNERS).split("、")
    if "target" not in result:
        result["unreadable"].append("目標の数の行が見つかりません")
    return result


def verify_period(key: bytes, result: Mapping[str, Any]) -> list[str]:
    problems = list(result.get("unreadable", ()))
    if "target" not in result:
        return problems
    target = SeededDice(key, PURPOSE).roll(int(result["sides"]))
    if result["target"] != target:
        problems.append(f"目標の数が再計算と一致しません（投稿: {result['target']} ／ 再計算: {target}）")
    guesses = result.get("guesses", ())
    for entry in guesses:
        if entry["difference"] != abs(entry["guess"] - target):
            problems.append(
                f"{entry['player']}の差 {entry['difference']} が目標の数 {target} からの差と違います"
            )
    best = min((abs(entry["guess"] - target) for entry in guesses), default=None)
    closest = sorted({entry["player"] for entry in guesses if abs(entry["guess"] - target) == best})
    if sorted(result.get("winners", ())) != closest:
        problems.append(
            f"当たり（{'、'.join(result.get('winners', ())) or 'なし'}）が再計算（{'、'.join(closest) or 'なし'}）と違います"
        )
    return problems
