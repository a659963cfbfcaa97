"""GM override lines and lifecycle words: lines per second on ordinary posts, and the time hostile
lines take (long runs of spaces, anchors, digits, dots: the shapes that make regexes backtrack).

Every GM post line goes through `find_gm_commands` and every player line through `find_words`, so
both must stay linear in the length of the line.
"""

from __future__ import annotations

import time

from bench.timing import per_second
from parser.gm import find_gm_commands, parse_gm_line
from parser.gm_words import CANCEL_WORDS, find_words, is_word

HOSTILE = 200_000

ORDINARY = [
    "停止",
    "延長 1時間30分",
    "延長 11/30 22:00",
    "無効 >>12 >>15-17",
    "設定 teams.A.name=赤軍",
    "次スレ https://jbbs.shitaraba.jp/bbs/read.cgi/game/12345/1700000000/",
    "!gm rollback hold",
    "停止線で止まった",
    "この設定いいね",
    "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
    "ただの雑談です。今日は寒いですね",
    "> 延長 30分",
]

HOSTILE_LINES = {
    "spaces then 停止": " " * HOSTILE + "停止",
    "無効 + anchors": "無効 " + ">>1 " * HOSTILE,
    "無効 >>1 spaces dash spaces": "無効 >>1" + " " * HOSTILE + "-" + " " * HOSTILE,
    "設定 long path": "設定 " + "a" * HOSTILE,
    "設定 long value": "設定 a.b=" + "x" * HOSTILE,
    "次スレ long host": "次スレ https://" + "a" * HOSTILE,
    "次スレ dotted host": "次スレ https://" + "a." * HOSTILE + "-",
    "次スレ filler": "次スレ" + "は" * HOSTILE,
    "延長 digits": "延長 " + "1" * HOSTILE,
    "延長 date spaces": "延長 11/30" + " " * HOSTILE + "x",
    "延長 明日 spaces": "延長 明日" + " " * HOSTILE + "x",
    "digits then 延長": "1" * HOSTILE + "延長",
    "duration spaces 延長": "30分" + " " * HOSTILE + "延長x",
    "!gm spaces": "!gm" + " " * HOSTILE,
}


def main() -> None:
    body = "\n".join(ORDINARY * 100)
    lines = len(ORDINARY) * 100
    print(
        f"find_gm_commands, ordinary lines: {per_second(lambda: find_gm_commands(body), lines):,.0f} lines/s"
    )
    print(
        f"find_words (cancel), ordinary lines: {per_second(lambda: find_words(body, CANCEL_WORDS), lines):,.0f} lines/s"
    )
    print(f"hostile lines of about {HOSTILE:,} characters (ms for one parse_gm_line):")
    worst = 0.0
    for name, line in HOSTILE_LINES.items():
        start = time.perf_counter()
        parse_gm_line(line)
        elapsed = (time.perf_counter() - start) * 1000
        worst = max(worst, elapsed)
        print(f"  {name:32} {elapsed:8.1f} ms  ({len(line):,} chars)")
    print(f"  worst: {worst:.1f} ms")
    start = time.perf_counter()
    is_word("【" + " " * HOSTILE + "取消", CANCEL_WORDS)
    print(f"is_word, 【 and {HOSTILE:,} spaces: {(time.perf_counter() - start) * 1000:.1f} ms")
    big = "\n".join(["停止線で止まった", "無効 >>12", "> 停止", "延長 あとで", "雑談" * 50] * 4000)
    start = time.perf_counter()
    found = find_gm_commands(big)
    print(
        f"find_gm_commands, 20,000-line post: {(time.perf_counter() - start) * 1000:.1f} ms, {len(found)} found"
    )
