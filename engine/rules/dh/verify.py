"""A published DH phase checked against its revealed key: every die of its 【判定】 section is the
first face of its stream `dh/<phase>/<label>/<n>` under the period key, and every d100's verdict is
the one its face and target give (success on a face at most the target).

`read_period` gives the structured result back from a report as posted (the wording `report.py`
writes); `verify_period` works on that or on `Report.meta["result"]` alike. Problems are Japanese.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from engine.rng import SeededDice
from engine.rules.dh.report import CHECKS_HEADING

_LINE = regex.compile(r"^(dh/\d+/[^/\s]+/\d+) d(\d+)=(\d+)(?: 目標(-?\d+) (成功|失敗))?$")


def read_period(lines: Sequence[str]) -> dict[str, Any]:
    """The 【判定】 lines of a posted phase report as `{"checks": {purpose: …}}`."""
    stripped = [text.strip() for text in lines]
    marker = f"【{CHECKS_HEADING}】"
    if marker not in stripped:
        return {"checks": {}}
    checks: dict[str, dict[str, Any]] = {}
    unreadable: list[str] = []
    for text in stripped[stripped.index(marker) + 1 :]:
        if not text or text.startswith("【") or text.startswith("鍵 "):
            break
        match = _LINE.match(text)
        if match is None:
            unreadable.append(f"判定の行「{text}」が読めません")
            continue
        purpose, sides, face, target, verdict = match.groups()
        checks[purpose] = {
            "sides": int(sides),
            "face": int(face),
            "target": int(target) if target is not None else None,
            "ok": verdict == "成功" if verdict is not None else True,
        }
    return {"checks": checks, "unreadable": unreadable}


def verify_period(key: bytes, result: Mapping[str, Any]) -> list[str]:
    """What the result shows that the key does not give (empty: every die matches)."""
    problems = list(result.get("unreadable", ()))
    for purpose, check in result.get("checks", {}).items():
        if check.get("face") is None:
            continue  # a target at or past an edge: nothing was rolled
        face = SeededDice(key, purpose).roll(int(check["sides"]))
        if face != check["face"]:
            problems.append(
                f"{purpose} の出目が再計算と一致しません（投稿: {check['face']} ／ 再計算: {face}）"
            )
        elif (
            check["sides"] == 100
            and check.get("target") is not None
            and check["ok"] != (face <= check["target"])
        ):
            problems.append(f"{purpose} の成否が出目{face}と目標{check['target']}の判定と一致しません")
    return problems
