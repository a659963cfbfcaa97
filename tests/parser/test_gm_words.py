"""Order-lifecycle words: cancel and ready on a line of their own (parser/gm_words.py)."""

from __future__ import annotations

import pytest

from parser.gm_words import CANCEL_WORDS, READY_WORDS, find_words, is_word


@pytest.mark.parametrize(
    "line",
    [
        "取消",
        "取り消し",
        "取消し",
        "キャンセル",
        "ｷｬﾝｾﾙ",
        "!cancel",
        "！ｃａｎｃｅｌ",
        "!CANCEL",
        "  取消  ",
        "\u3000取消\u3000",
        "【取消】",
        "【 取り消し 】",
        "取消。",
        "キャンセル！",
        "【取消】！",
        "取消\r",
    ],
)
def test_cancel_words(line: str) -> None:
    assert is_word(line, CANCEL_WORDS)
    assert not is_word(line, READY_WORDS)


@pytest.mark.parametrize(
    "line",
    ["準備完了", "準備OK", "準備ok", "準備ＯＫ", "!ready", "！ＲＥＡＤＹ", "【準備完了】", "準備完了！！"],
)
def test_ready_words(line: str) -> None:
    assert is_word(line, READY_WORDS)
    assert not is_word(line, CANCEL_WORDS)


@pytest.mark.parametrize(
    "line",
    [
        "取消はできますか",
        "さっきのを取消",
        "取消 >>12",
        "準備完了まであと少し",
        "準備完了です",
        "まだ準備完了じゃない",
        "準備 完了",
        "!cancel please",
        "!cancelled",
        "cancel",
        "【取消",
        ">取消",
        "＞準備完了",
        "",
        "   ",
        "！",
    ],
)
def test_lines_that_merely_contain_a_word_are_not_words(line: str) -> None:
    assert not is_word(line, CANCEL_WORDS)
    assert not is_word(line, READY_WORDS)


def test_games_configure_their_own_words() -> None:
    words = ["やめる", "【撤回】", "!Undo"]
    assert is_word("やめる", words)
    assert is_word("撤回", words)  # a configured word is compared without its own 【】
    assert is_word("!undo", words)
    assert not is_word("取消", words)
    assert not is_word("取消", [])
    assert not is_word("", ["", "  "])


def test_find_words_gives_zero_based_lines_and_skips_quotes() -> None:
    body = "\n".join(
        [
            "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
            "取消",
            ">取消",
            "取消はまだ？",
            "【キャンセル】",
            "準備完了",
        ]
    )
    assert find_words(body, CANCEL_WORDS) == [1, 4]
    assert find_words(body, READY_WORDS) == [5]
    assert find_words(body, []) == []


@pytest.mark.timeout(30)  # a guard against quadratic scans; the figures are in bench/bench_gm.py
def test_hostile_input_is_answered() -> None:
    assert not is_word("【" + " " * 200_000 + "取消", CANCEL_WORDS)
    assert not is_word("!" * 200_000 + "x" + "!" * 200_000, CANCEL_WORDS)
    assert is_word("取消" + "！" * 100_000, CANCEL_WORDS)
    body = "\n".join(["雑談です", "取消", "> 取消"] * 5_000)
    assert find_words(body, CANCEL_WORDS) == list(range(1, 15_000, 3))
