"""Hostile posts of board size through the parsing the bot does for every post: how long one post
takes (p50 / p99 / p99.9 / max) and whether any reader raises.

A post goes where the bot sends every post it reads: the dice answer (`engine.dice.post.answer_post`,
with a seeded source), the GM lines (`parser.gm.find_gm_commands`) and each line through every game's
`parse_line`. Posts are capped as the board caps them (2,048 characters, 24 lines, 256 a line: the
board refuses anything larger), and drawn from the generators that found the slow cases of issue 11:
repeat lines (`x100 10D100`), long dice tables, long runs of order brackets, astral and CJK noise, and
the token soup of tests/test_hostile_posts.py. Seeded: the same posts every run.

`BENCH_HOSTILE_POSTS` changes the count (100,000 by default).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable

from engine.dice.post import answer_post
from engine.rng import SeededSource
from engine.rules import REGISTRY
from parser.gm import find_gm_commands

POSTS = int(os.environ.get("BENCH_HOSTILE_POSTS", "100000"))
SEED = 20261201
MAX_CHARS, MAX_LINES, MAX_COLUMNS = 2048, 24, 256  # the local board's defaults (ex0ch's)

_WORDS = (
    "dice 2d6= d D 1D100<=50 3B6 2R6 4U6 D66 C( CHOICE[ choice( S x rep 10000 9999 0 999999999999 "
    "+ - * / ( ) [ ] , 、 = <= >= <> ＝ ｄ １ ６ ＋ 【 】 『 』 基準 1. 2. 5.相打ち ＞ >> &gt; &lt; "
    "停止 再開 延長 即時更新 無効 巻き戻し 設定 公開 次スレ 状態 !gm ＜攻撃＞ ＜移動＞ (1,2) XYZ-F-B-01 ◆ # ★ \t 　"
)
_TOKENS = _WORDS.split(" ")


def _repeat_lines(rng: random.Random) -> list[str]:
    word = rng.choice(["x", "rep", "repeat", "Sx"])
    return [
        f"{word}{rng.randint(1, 100)} {rng.randint(1, 100)}D{rng.choice([6, 10, 100, 1000])}"
        + rng.choice(["", ">=50", "+10", " 攻撃"])
        for _ in range(rng.randint(1, MAX_LINES))
    ]


def _long_table(rng: random.Random) -> list[str]:
    sides = rng.randint(2, 22)
    head = [f"【{'表' * rng.randint(1, 40)}】", f"dice1d{sides}=" if rng.random() < 0.5 else f"1D{sides}"]
    return head + [f"{n}.{'結果' * rng.randint(1, 60)}" for n in range(1, MAX_LINES - 1)]


def _brackets(rng: random.Random) -> list[str]:
    word = rng.choice(["＜攻撃＞", "＜移動＞", "＜インターセプト＞", "【", "『", "(", "["])
    return [word * (MAX_COLUMNS // len(word)) for _ in range(rng.randint(1, MAX_LINES))]


def _noise(rng: random.Random) -> list[str]:
    ranges = [(0x4E00, 0x9FFF), (0x3040, 0x30FF), (0x1F300, 0x1FAFF), (0x20000, 0x2A6DF), (0xFF01, 0xFF5E)]
    lines = []
    for _ in range(rng.randint(1, MAX_LINES)):
        low, high = rng.choice(ranges)
        lines.append("".join(chr(rng.randint(low, high)) for _ in range(rng.randint(1, MAX_COLUMNS))))
    return lines


def _tokens(rng: random.Random) -> list[str]:
    text = "".join(rng.choice([*_TOKENS, "\n", " "]) for _ in range(rng.randint(1, 400)))
    return text.split("\n")


GENERATORS: dict[str, Callable[[random.Random], list[str]]] = {
    "repeat lines": _repeat_lines,
    "long tables": _long_table,
    "order brackets": _brackets,
    "astral and CJK noise": _noise,
    "token soup": _tokens,
}


def board_sized(lines: list[str]) -> str:
    """What the board would let through: 24 lines of 256 characters, 2,048 characters in all."""
    return "\n".join(line[:MAX_COLUMNS] for line in lines[:MAX_LINES])[:MAX_CHARS]


def read_post(body: str, source: SeededSource, parse_lines: list[Callable[[str], object]]) -> None:
    answer_post(body, source)
    find_gm_commands(body)
    for line in body.split("\n"):
        for parse in parse_lines:
            parse(line)


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    rng = random.Random(SEED)
    source = SeededSource(b"k" * 32)
    parse_lines = [ruleset.parse_line for ruleset in REGISTRY]
    times: list[float] = []
    slow: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    examples: list[str] = []
    names = list(GENERATORS)
    for _ in range(POSTS):
        kind = rng.choice(names)
        body = board_sized(GENERATORS[kind](rng))
        start = time.perf_counter()
        try:
            read_post(body, source, parse_lines)
        except Exception as error:  # a crash is the finding: count it and keep its input
            crashes[kind] += 1
            if len(examples) < 3:
                examples.append(f"{kind}: {error!r} on {body[:80]!r}")
        elapsed = (time.perf_counter() - start) * 1000
        times.append(elapsed)
        if elapsed > 10:
            slow[kind] += 1
    ordered = sorted(times)
    print(f"{POSTS:,} hostile posts of board size ({', '.join(names)}), ms per post:")
    print(
        f"  p50 {_percentile(ordered, 0.5):.2f}  p99 {_percentile(ordered, 0.99):.2f}  "
        f"p99.9 {_percentile(ordered, 0.999):.2f}  max {ordered[-1]:.2f}"
    )
    print(f"  over 10 ms: {sum(slow.values())} ({dict(slow) or 'none'})")
    print(f"  crashes: {sum(crashes.values())} ({dict(crashes) or 'none'})")
    for example in examples:
        print(f"    {example}")
