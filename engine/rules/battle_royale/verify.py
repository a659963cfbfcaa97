"""Checking a 都道府県バトロワ period against its key, once the key is revealed.

Every public die of a period is rolled on the stream `br/BATTLE/INDEX` of the period key: BATTLE is the
battle the die belongs to (its 【都道府県選択ダイス】 comes before the 【第N戦】 heading), INDEX counts the
battle's rolled dice from 0 (a die with one possible outcome is decided without a roll and takes no
index). So from a posted report alone verify recomputes, for each die, its faces, their total, and the
outcome the posted table lines give for those faces (the numbers an 都道府県選択ダイス names).

Not recomputable from the thread: the 黒幕 set-up dice (rolled on `secret/…` streams under the rules
secret and never posted — verify checks the published secret key against its hash), and which name
stands behind a number of the 都道府県表 (the table is the 生き残り表 posted before; the number is
checked, the name is not).

A report must say where its dice's streams start: a battle begun in the period before opens the report
with `continued`'s line, and a 黒幕決戦 (whose heading has no number; it may begin inside the battle whose
die unmasked the mastermind) shows its number under the heading. `read_period` reads the report into
the structure `verify_period` checks; problems are Japanese, one line each, for players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from engine.rng import SeededDice

SELECTION = "都道府県選択ダイス"
_DICE = regex.compile(r"^dice(\d+)d(\d+)=((?:\d+ )*\d+) \((\d+)\)$")
_HEADING = regex.compile(r"^【(.+)】$")
_BATTLE = regex.compile(r"^第(\d+)戦(?:（仲間割れ）)?$")
_FINAL = "黒幕決戦"
_FIRST_PERIOD = regex.compile(r"^ピリオド1 更新")
SETUP = "setup"  # the battle part of the set-up dice's streams (地区代表選出, before the first battle)
_FACE = regex.compile(r"^(\d+)(?:～(\d+))?\.(.+)$")
_OUTCOME = regex.compile(r"^→ (.+)$")
_COUNTED = regex.compile(r"^(\d+)人～(\d+)人（出目の順）$")
_PICKED = regex.compile(r"(?:^|／ )(\d+)\.")
_FINAL_NUMBER = regex.compile(r"^（第(\d+)戦）$")
_CONTINUED = regex.compile(r"^（第(\d+)戦の続き：この戦闘の(\d+)個目のダイスから）$")


def continued(battle: int, index: int) -> str:
    """The line a report opens with when its first battle began in the period before: which battle,
    and which of its dice comes first (a report alone must say where its dice's streams start)."""
    return f"（第{battle}戦の続き：この戦闘の{index + 1}個目のダイスから）"


def purpose(battle: int | str, index: int) -> str:
    """The stream of a battle's index-th rolled die under the period key (the engine's `make_request`)."""
    return f"br/{battle}/{index}"


def die_entry(
    battle: int | str | None, index: int, table: str, sides: int, faces: Sequence[int]
) -> dict[str, Any]:
    return {
        "battle": battle,
        "index": index,
        "table": table,
        "sides": sides,
        "faces": list(faces),
        "total": sum(faces),
        "lines": {},
        "outcome": "",
    }


# -- from a posted report -------------------------------------------------------------------------


class _Reader:
    """One pass over a report's lines, handing each die its battle and index.

    Selection dice come before their battle's heading, and may be the next battle's first dice or a
    re-roll inside the battle being read (仲間割れ's 振り直し): the heading that follows tells which — the
    same number continues the count, the next one starts it again from 0."""

    def __init__(self) -> None:
        self.dice: list[dict[str, Any]] = []
        self.unreadable: list[str] = []
        self.table = ""  # the 【name】 of the die template being read
        self.battle: int | str | None = None  # the battle of the dice being read (None: not known yet)
        self.final = False  # a 黒幕決戦 began: its dice wait for the （第N戦） line that follows
        self.index = 0  # the index of the next die of that battle
        self.pending: list[dict[str, Any]] = []  # dice whose battle a later heading or （全N戦） names
        self.open: dict[str, Any] | None = None  # the die whose face lines and outcome come next

    def feed(self, text: str) -> None:
        text = text.strip()
        if match := _HEADING.match(text):
            self._heading(match[1])
        elif match := _DICE.match(text):
            self._die(int(match[1]), int(match[2]), [int(f) for f in match[3].split()], int(match[4]))
        elif self.open is not None and (match := _FACE.match(text)):
            low, high = int(match[1]), int(match[2] or match[1])
            self.open["lines"][f"{low}-{high}"] = match[3]
        elif self.open is not None and (match := _OUTCOME.match(text)):
            self.open["outcome"] = match[1]
            self.open = None
        elif self.final and (match := _FINAL_NUMBER.match(text)):
            self._name_battle(int(match[1]))
        elif match := _CONTINUED.match(text):
            self.battle, self.index, self.pending, self.final = int(match[1]), int(match[2]) - 1, [], False

    def _name_battle(self, number: int | str) -> None:
        """The dice waiting for their battle belong to `number`: the same battle's count goes on, a
        new battle's starts from 0."""
        first = self.index if number == self.battle else 0
        for offset, die in enumerate(self.pending):
            die["battle"], die["index"] = number, first + offset
        self.battle, self.index = number, first + len(self.pending)
        self.pending, self.final = [], False

    def _heading(self, name: str) -> None:
        self.open = None
        if match := _BATTLE.match(name):
            self._name_battle(int(match[1]))
        elif name == _FINAL:
            # The battle after the last one, or the one being read when a die just unmasked the
            # mastermind: the （第N戦） line under the heading says which.
            self.final = True
        elif _FIRST_PERIOD.match(name):
            self.battle = SETUP  # dice before the first selection are the set-up's
        else:
            self.table = name

    def _die(self, count: int, sides: int, faces: list[int], total: int) -> None:
        if len(faces) != count:
            self.unreadable.append(f"【{self.table}】 dice{count}d{sides} の出目が{len(faces)}個です")
        die = die_entry(None, 0, self.table, sides, faces)
        die["total"] = total
        self.dice.append(die)
        self.open = die
        if self.table == SELECTION or self.pending or self.battle is None or self.final:
            self.pending.append(die)  # its battle: the heading that follows says (or the ending)
        else:
            die["battle"], die["index"] = self.battle, self.index
            self.index += 1


def read_period(lines: Sequence[str]) -> dict[str, Any]:
    """A posted period report as the structure `verify_period` checks: every rolled die with its
    battle, index, table name, sides, faces, posted total, posted face lines and outcome."""
    reader = _Reader()
    for text in lines:
        reader.feed(text)
    return {"dice": reader.dice, "unreadable": reader.unreadable}


# -- against the key --------------------------------------------------------------------------------


def verify_period(key: bytes, result: Mapping[str, Any]) -> list[str]:
    """What a period's dice show that its key does not give (empty: everything matches)."""
    problems = list(result.get("unreadable", ()))
    for die in result.get("dice", ()):
        problems += _check_die(key, die)
    return problems


def _check_die(key: bytes, die: Mapping[str, Any]) -> list[str]:
    table, faces, sides = die["table"], list(die["faces"]), int(die["sides"])
    if die["battle"] is None:
        return [f"【{table}】（{' '.join(map(str, faces))}）が何戦目のダイスか読めません"]
    battle = "開始前の準備" if die["battle"] == SETUP else f"第{die['battle']}戦"
    where = f"{battle}の{die['index'] + 1}個目のダイス【{table}】"
    dice = SeededDice(key, purpose(die["battle"], int(die["index"])))
    expected = [dice.roll(sides) for _ in faces]
    problems = []
    if faces != expected:
        shown, again = " ".join(map(str, faces)), " ".join(map(str, expected))
        problems.append(f"{where}の出目が再計算と一致しません（投稿: {shown} ／ 再計算: {again}）")
    if die["total"] != sum(faces):
        problems.append(f"{where}の合計 ({die['total']}) が出目の合計 ({sum(faces)}) と違います")
    wrong = _outcome_problem(die, expected)
    return problems + ([f"{where}の{wrong}"] if wrong else [])


def _outcome_problem(die: Mapping[str, Any], faces: list[int]) -> str | None:
    """Does the posted outcome follow from the faces by the posted table lines?"""
    outcome = die["outcome"]
    if not outcome:
        return "結果（→ の行）がありません"
    picked = [int(number) for number in _PICKED.findall(outcome)]
    if die["table"] == SELECTION or (not die["lines"] and picked):
        if picked != faces:
            return f"結果「{outcome}」が出目 {' '.join(map(str, faces))} の番号と違います"
        return None
    if len(faces) != 1 or not die["lines"]:
        return None  # no table lines posted (a long count table): nothing to compare the outcome with
    label = _label(die["lines"], faces[0])
    if label is None:
        return f"表に出目 {faces[0]} の行がありません"
    if not _names(outcome, label):
        return f"結果「{outcome}」が表の出目 {faces[0]}（{label}）と違います"
    return None


def _label(lines: Mapping[str, str], face: int) -> str | None:
    for span, label in lines.items():
        low, _, high = span.partition("-")
        if int(low) <= face <= int(high):
            if counted := _COUNTED.match(label):  # a long count table in one line: face n is the n-th count
                return f"{int(counted[1]) + face - int(low)}人"
            return label
    return None


def _names(outcome: str, label: str) -> bool:
    """The outcome line names the face's line: as it begins, or a 『name』 picked anywhere in it
    (a タッグ結成 names both partners)."""
    return outcome.startswith(label) or (label.startswith("『") and label in outcome)
