"""Checking a published naval period report against the period's key, once the key is revealed: the
【乱数】 table's numbers against the faces of each island's stream `naval/ISLAND` under the key, and every
battle line's number against its island's letter (handed out A, B, C, ... in order) and its verdict
against the strengths and that number. Problems are told in Japanese, one line each, for players.
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from engine.rng import SeededDice
from engine.rules.naval.combat import attacker_wins
from engine.rules.naval.results import LETTERS

PURPOSE = "naval/{island}"  # the stream of an island's random numbers under the period key (the core's)

_RANDOMS_HEADING = "【乱数】"
_RANDOM_USE = regex.compile(
    r"(\d+)\.(?:[A-Z][A-Z0-9]*:)?＜(?:攻撃|インターセプト)＞([A-Z0-9-]+)、\S*"
    r" → \[([A-Z][A-Z0-9]*)\]の乱数([A-Z])（(.*)） → (.+)$"
)
_WORK = regex.compile(r"^交戦力(?:同値)?(\d+)対(\d+)、.*?乱数(\d+)")


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


def verify_report(lines: Sequence[str], key: bytes) -> list[str]:
    """What a period's published report shows that its key does not give (Japanese, one per problem):
    every island's random numbers against the faces of `naval/ISLAND` under the key; every battle's
    number against its island's letter, the letters handed out A, B, C, ... in order, and the verdict
    against the strengths and the number."""
    published = _published_randoms(lines)
    if published is None:
        return ["乱数の表（【乱数】）が見つかりません"]
    letters, rows = published
    if list(letters) != list(LETTERS[: len(letters)]) or not letters:
        return [f"乱数の表の見出し「{' '.join(letters)}」が A、B、C… の順になっていません"]
    faces, problems = _check_table(letters, rows, key)
    handed: dict[str, int] = {}
    for text in lines:
        match = _RANDOM_USE.search(text)
        if match is not None:
            problems += _check_battle(match, faces, handed)
    return problems


def _check_table(
    letters: list[str], rows: dict[str, list[str]], key: bytes
) -> tuple[dict[str, list[int]], list[str]]:
    """Each island's recomputed faces, and where the posted table differs from them."""
    faces: dict[str, list[int]] = {}
    problems: list[str] = []
    for island, cells in rows.items():
        dice = SeededDice(key, PURPOSE.format(island=island))
        faces[island] = [dice.roll(100) for _ in letters]
        if len(cells) != len(letters):
            problems.append(f"[{island}]の乱数が{len(cells)}個です（{len(letters)}個のはず）")
        for letter, cell, face in zip(letters, cells, faces[island], strict=False):
            if cell != str(face):
                problems.append(
                    f"[{island}]の乱数{letter}が再計算と一致しません（投稿: {cell} ／ 再計算: {face}）"
                )
    return faces, problems


def _check_battle(match: regex.Match[str], faces: dict[str, list[int]], handed: dict[str, int]) -> list[str]:
    """One battle line: its letter is the island's next, its number the recomputed face, its verdict
    the one the strengths and that face give. `handed` counts the letters each island has used."""
    number, unit, island, letter, work, outcome = match.groups()
    where = f"{number}番目の命令"
    if island not in faces:
        return [f"{where}が使った[{island}]の乱数は乱数の表にありません"]
    problems: list[str] = []
    expected_letter = LETTERS[handed.get(island, 0)]
    handed[island] = handed.get(island, 0) + 1
    if letter != expected_letter:
        problems.append(f"{where}に[{island}]の乱数{letter}が使われています（順番では乱数{expected_letter}）")
    index = LETTERS.index(letter)
    judged = _WORK.match(work)
    if index >= len(faces[island]) or judged is None:
        problems.append(f"{where}の乱数の使い方が読めません")
        return problems
    mine, theirs, value = (int(group) for group in judged.groups())
    face = faces[island][index]
    if value != face:
        problems.append(
            f"{where}の[{island}]の乱数{letter}が再計算と一致しません（投稿: {value} ／ 再計算: {face}）"
        )
    won = outcome.startswith(f"{unit}勝利")
    if not won and not outcome.startswith(f"{unit}敗戦"):
        problems.append(f"{where}の結果「{outcome}」が読めません")
    elif won != attacker_wins(mine, theirs, face):
        problems.append(f"{where}の勝敗が交戦力{mine}対{theirs}と乱数{face}の判定と一致しません")
    return problems
