"""Checking a season of にじ野望 against its key, once the key is revealed: every die of the season
(配信 `niji/haishin/<area>`, initiative ties `niji/initiative/<area>`, 下克上 `niji/revolt/<area>`) is
published under 【乱数】 as `PURPOSE d6=5 d4=2`, in the order rolled; each is recomputed with
`SeededDice(key, PURPOSE)`. `read_period` reads that section back from a report as posted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from engine.rng import SeededDice
from engine.rules.nijiyabou.report import ROLLS_HEADING

_ROLL = regex.compile(r"^d(\d+)=(\d+)$")


def read_period(lines: Sequence[str]) -> dict[str, Any] | None:
    """The season's dice from a posted report: {"rolls": {purpose: [[sides, face], ...]}}."""
    stripped = [text.strip() for text in lines]
    if not any(text.startswith("【にじ野望 ") for text in stripped):
        return None
    rolls: dict[str, list[list[int]]] = {}
    unreadable: list[str] = []
    start = (
        stripped.index(f"【{ROLLS_HEADING}】") + 1 if f"【{ROLLS_HEADING}】" in stripped else len(stripped)
    )
    for text in stripped[start:]:
        if not text or text.startswith("【"):
            break
        purpose, *faces = text.split()
        matches = [_ROLL.match(face) for face in faces]
        if not purpose.startswith("niji/") or not faces or None in matches:
            unreadable.append(f"乱数の行「{text}」が読めません")
            continue
        rolls[purpose] = [[int(m[1]), int(m[2])] for m in matches if m]
    return {"rolls": rolls, "unreadable": unreadable}


def verify_period(key: bytes, result: Mapping[str, Any]) -> list[str]:
    problems = list(result.get("unreadable", ()))
    for purpose, faces in result.get("rolls", {}).items():
        dice = SeededDice(key, purpose)
        for number, (sides, face) in enumerate(faces, start=1):
            again = dice.roll(sides)
            if again != face:
                problems.append(
                    f"{purpose} の{number}個目の乱数が再計算と一致しません（投稿: {face} ／ 再計算: {again}）"
                )
                break
    return problems
