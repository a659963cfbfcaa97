"""Hostile and random text through every reader of posts: nothing raises, whatever the thread holds.

Seeded, so a failure names its input and comes back the same every run. The generator mixes the
tokens each grammar cares about (dice, tables, GM words, naval orders, markup) with noise; the
bugs it found (a page Python's HTML parser rejected outright) have tests of their own too.
"""

from __future__ import annotations

import random

import pytest

from engine.dice import answers
from engine.rules.battle_royale.grammar import find_die_templates
from engine.rules.naval.grammar import find_naval_orders
from parser.dice_tables import find_post_dice
from parser.gm import find_gm_commands
from poster.markup import PostLimits, render_posts
from scraper.dat import parse_dat
from scraper.html import parse_read_cgi
from scraper.rawmode import parse_rawmode

_WORDS = (
    "dice 2d6= d D 1D100<=50 3B6 2R6 4U6 D66 C( CHOICE[ choice( S x rep 10000 9999 0 999999999999 "
    "+ - * / ( ) [ ] , 、 = <= >= <> ＝ ｄ １ ６ ＋ 【 】 『 』 基準 1. 2. 5.相打ち ＞ >> &gt; &lt; <br> <> "
    '<![ <!x> <!-- <dt> <dd> <div class="post"> </div> 停止 再開 延長 即時更新 無効 巻き戻し 設定 公開 '
    "次スレ 状態 !gm ＜攻撃＞ ＜移動＞ ＜インターセプト＞ (1,2) XYZ-F-B-01 ◆ # ★ \t 　"
)
TOKENS = (*_WORDS.split(" "), "\n", " ")
NOISE = "abcxyz0123456789漢字かなカナ！？（）「」・…〜～\u200b\ufeff\x00\x7f\ud7ff"


def hostile_bodies(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        parts = [
            rng.choice(TOKENS) if rng.random() < 0.6 else rng.choice(NOISE) for _ in range(rng.randint(0, 80))
        ]
        yield "".join(parts)


READERS = {
    "dice answer": lambda body: answers.answer("1234567890", 5, body, b"k" * 32, lambda index: b"s" * 32),
    "GM commands": find_gm_commands,
    "naval orders": find_naval_orders,
    "battle royale templates": find_die_templates,
    "dice tables": find_post_dice,
    "dat": parse_dat,
    "rawmode": parse_rawmode,
    "read.cgi HTML": parse_read_cgi,
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_no_reader_raises_on_hostile_text(reader: str) -> None:
    read = READERS[reader]
    for body in hostile_bodies(seed=20261129, count=1500):
        try:
            result = read(body)
            if reader == "dice answer" and result is not None:
                assert all(render_posts([result], PostLimits(12, 2048, 256)))
        except Exception as error:  # the failing input, whole, is the useful part of the report
            raise AssertionError(f"{reader} raised {error!r} on {body!r}") from error
