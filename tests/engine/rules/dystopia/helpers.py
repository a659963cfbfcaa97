"""Shared pieces of the DysTopiA tests: a small party, posts answered with recorded dice."""

from __future__ import annotations

import re
from typing import Any

from engine.report import Report
from engine.rng import RecordedDice, RecordedSource
from engine.rules.dystopia import RULESET
from engine.rules.dystopia.handouts import commitment
from engine.rules.dystopia.state import State
from engine.ruleset import Order, OrderText

GM = "GM◆GMTRIP"
GM_TRIPS = ("GMTRIP",)
PROGRAM_VALUE = re.compile(
    r"\b(?:None|True|False)\b|\{'|'\}|\[\]|<[a-z]+ object"
)  # the configuration's gm_trips of these tests
AKIRA = "アキラの中の人◆AKIRA"
YUI = "ユイの中の人◆YUI"
KEN = "ケンの中の人◆KEN"


def pc(name: str, owner: str, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "owner": owner,
        "cl": 1,
        "race": "人間",
        "classes": ["ナイト", "メイジ"],
        "stats": {"肉体": 6, "集中": 5, "反射": 4, "知識": 3, "幸運": 2},
        "hp": 20,
        "durability": 8,
        "mp": 10,
    }
    return data | extra


def scenario(**options: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "pcs": [
            pc(
                "アキラ",
                "◆AKIRA",
                connections=[
                    {"to": "ユイ", "emotion": "友情", "strength": 4},
                    {"to": "ケン", "emotion": "信頼", "strength": 1},
                    {"to": "クロウ", "emotion": "敵意", "strength": 3},
                ],
                handout="アキラは密偵だ",
            ),
            pc(
                "ユイ",
                "◆YUI",
                connections=[
                    {"to": "アキラ", "emotion": "信頼", "strength": 5},
                    {"to": "ケン", "emotion": "友情", "strength": 3},
                ],
                handout="ユイは王家の末裔",
            ),
            pc("ケン", "◆KEN", connections=[{"to": "アキラ", "emotion": "尊敬", "strength": 2}]),
        ],
        "npcs": [{"name": "クロウ", "stats": {"肉体": 7}, "hp": 30}],
    }
    return base | options


def start(**options: Any) -> State:
    """A committed party: the handout keys are drawn from the secret stream (all faces 1: zero bytes)."""
    state = RULESET.initial_state(scenario(**options))
    state.committed = True
    for handout in state.handouts.values():
        key = bytes(32)
        handout.key, handout.commitment = key.hex(), commitment(key, handout.owner, handout.text)
    return state


def play(
    state: State,
    body: str,
    author: str = GM,
    rands: list[tuple[int, int]] | None = None,
    gm_trips: tuple[str, ...] = GM_TRIPS,
) -> tuple[State, Report]:
    """Answer one post with recorded faces (every die the post rolls, in order; all must be used), the
    author a GM when their trip is one of `gm_trips` (as the referee marks it)."""
    parsed = RULESET.parse_post(body)
    assert isinstance(parsed, OrderText), parsed
    dice = RecordedDice(rands or [])
    gm = author.partition("◆")[2] in gm_trips
    order = Order(1, 0, author, author, parsed.command, parsed.canonical, gm=gm)
    new, answer = RULESET.apply(state, order, RecordedSource(default=dice))
    assert dice.remaining == 0, f"{dice.remaining} recorded dice unused"
    assert not PROGRAM_VALUE.search(answer.plain), answer.plain  # issue 25: no Python value in a post
    return new, answer


def d6(*faces: int) -> list[tuple[int, int]]:
    return [(6, face) for face in faces]
