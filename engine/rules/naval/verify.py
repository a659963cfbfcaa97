"""Checking a naval period against its key, once the key is revealed — on the period's structured
result (`Report.meta["result"]`, the form `resolution_to_dict` writes): every island's numbers against
the faces of its stream `naval/ISLAND` under the key, and every battle's number against its island's
letter (handed out A, B, C, ... in order) and its verdict against the strengths and that number.

`read_period` gives the same structure back from a report as posted (for `threadgm verify`, which has
only the thread); the wording it reads is the one `report.py` writes. Problems are Japanese, one line
each, for players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from engine.rng import SeededDice
from engine.rules.naval.combat import attacker_wins
from engine.rules.naval.results import LETTERS
from parser.numbers import NotANumber, read_number

PURPOSE = "naval/{island}"  # the stream of an island's random numbers under the period key (the core's)

_RANDOMS_HEADING = "【乱数】"
_RANDOM_USE = regex.compile(
    r"(\d+)\.(?:[A-Z][A-Z0-9]*:)?＜(?:攻撃|インターセプト)＞([A-Z0-9-]+)、\S*"
    r" → \[([A-Z][A-Z0-9]*)\]の乱数([A-Z])（(.*)） → (.+)$"
)
_WORK = regex.compile(r"^交戦力(?:同値)?(\d+)対(\d+)、.*?乱数(\d+)")


def verify_period(key: bytes, result: Mapping[str, Any]) -> list[str]:
    """What a period's result shows that its key does not give (empty: everything matches)."""
    problems = list(result.get("unreadable", ()))
    randoms: Mapping[str, Mapping[str, Any]] = result.get("randoms", {})
    used = [letter for values in randoms.values() for letter in values]
    used += [order["random"]["letter"] for order in result.get("orders", ()) if order.get("random")]
    count = 1 + max((LETTERS.index(letter) for letter in used), default=-1)
    faces = {island: _faces(key, island, count) for island in randoms}
    for island, values in randoms.items():
        problems += _check_island(island, values, faces[island])
    handed: dict[str, int] = {}
    for order in result.get("orders", ()):
        if order.get("random") is not None:
            problems += _check_battle(order, faces, handed)
    return problems


def _faces(key: bytes, island: str, count: int) -> list[int]:
    dice = SeededDice(key, PURPOSE.format(island=island))
    return [dice.roll(100) for _ in range(count)]


def _check_island(island: str, values: Mapping[str, Any], faces: list[int]) -> list[str]:
    problems = []
    for letter, value in values.items():
        face = faces[LETTERS.index(letter)]
        if value != face:
            problems.append(
                f"[{island}]の乱数{letter}が再計算と一致しません（投稿: {value} ／ 再計算: {face}）"
            )
    return problems


def _check_battle(order: Mapping[str, Any], faces: dict[str, list[int]], handed: dict[str, int]) -> list[str]:
    """One battle: its letter is the island's next, its number the recomputed face, its verdict the
    one the strengths and that face give. `handed` counts the letters each island has used."""
    where, used = f"{order['index']}番目の命令", order["random"]
    island, letter, value = used["island"], used["letter"], used["value"]
    if island not in faces:
        return [f"{where}が使った[{island}]の乱数は乱数の表にありません"]
    problems: list[str] = []
    expected = LETTERS[handed.get(island, 0)]
    handed[island] = handed.get(island, 0) + 1
    if letter != expected:
        problems.append(f"{where}に[{island}]の乱数{letter}が使われています（順番では乱数{expected}）")
    face = faces[island][LETTERS.index(letter)]
    if value != face:
        problems.append(
            f"{where}の[{island}]の乱数{letter}が再計算と一致しません（投稿: {value} ／ 再計算: {face}）"
        )
    mine, theirs = order["strengths"]
    if (order["result"] == "勝利") != attacker_wins(mine, theirs, face):
        problems.append(f"{where}の勝敗が交戦力{mine}対{theirs}と乱数{face}の判定と一致しません")
    return problems


# -- the same structure from a posted report ------------------------------------------------------


def read_period(lines: Sequence[str]) -> dict[str, Any]:
    """A posted period report as the structured result `verify_period` checks: the 【乱数】 table and
    the battles (what cannot be read is listed under `unreadable`)."""
    table = _published_randoms(lines)
    if table is None:
        return {"unreadable": ["乱数の表（【乱数】）が見つかりません"]}
    letters, rows = table
    if not letters or list(letters) != list(LETTERS[: len(letters)]):
        return {"unreadable": [f"乱数の表の見出し「{' '.join(letters)}」が A、B、C… の順になっていません"]}
    unreadable = [
        f"[{island}]の乱数が{len(cells)}個です（{len(letters)}個のはず）"
        for island, cells in rows.items()
        if len(cells) != len(letters)
    ]
    randoms = {
        island: dict(zip(letters, map(_number, cells), strict=False)) for island, cells in rows.items()
    }
    orders = []
    for text in lines:
        if (match := _RANDOM_USE.search(text)) is not None:
            order, problem = _battle(match)
            orders += [order] if order else []
            unreadable += [problem] if problem else []
    return {"randoms": randoms, "orders": orders, "unreadable": unreadable}


def _number(cell: str) -> int | str:
    number = read_number(cell)
    return cell if isinstance(number, NotANumber) else number


def _published_randoms(lines: Sequence[str]) -> tuple[list[str], dict[str, list[str]]] | None:
    """The 【乱数】 table: its letters and each island's cells as posted."""
    try:
        start = [text.strip() for text in lines].index(_RANDOMS_HEADING)
    except ValueError:
        return None
    if start + 1 >= len(lines):
        return None
    header = lines[start + 1].split()
    if not header or header[0] != "島":
        return None
    rows: dict[str, list[str]] = {}
    for text in lines[start + 2 :]:
        cells = text.split()
        if not cells or text.startswith("【"):
            break
        rows[cells[0]] = cells[1:]
    return header[1:], rows


def _battle(match: regex.Match[str]) -> tuple[dict[str, Any] | None, str | None]:
    number, unit, island, letter, work, outcome = match.groups()
    where = f"{number}番目の命令"
    judged = _WORK.match(work)
    if judged is None:
        return None, f"{where}の乱数の使い方が読めません"
    if outcome.startswith(f"{unit}勝利"):
        result = "勝利"
    elif outcome.startswith(f"{unit}敗戦"):
        result = "敗戦"
    else:
        return None, f"{where}の結果「{outcome}」が読めません"
    mine, theirs, value = (int(group) for group in judged.groups())
    random = {"island": island, "letter": letter, "value": value}
    return {"index": int(number), "random": random, "strengths": [mine, theirs], "result": result}, None


def verify_report(lines: Sequence[str], key: bytes) -> list[str]:
    """A posted report checked against its key: `read_period`, then `verify_period`."""
    return verify_period(key, read_period(lines))
