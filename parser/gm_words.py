"""The words players write on a line of their own: cancel (取消), ready (準備完了), help (ヘルプ).

A line is a word when, after NFKC, trimming and ASCII case folding, it equals one of the game's words,
optionally inside 【】 and optionally followed by sentence-end marks (`準備完了！`, `取消。`). A line that
merely contains a word (`準備完了まであと少し`, `取消はできますか`) is not one, nor is a quoted line.
Games configure their own lists; the defaults are below.
"""

from __future__ import annotations

from collections.abc import Sequence

from parser.bbs_dice import is_quote, normalize

CANCEL_WORDS: tuple[str, ...] = ("取消", "取り消し", "取消し", "キャンセル", "!cancel")
READY_WORDS: tuple[str, ...] = ("準備完了", "準備OK", "!ready")
HELP_WORDS: tuple[str, ...] = ("ヘルプ", "!help")  # the game's order forms, in short
FULL_HELP_WORDS: tuple[str, ...] = ("ヘルプ全文", "!help all")  # the game's whole HELP

_END_MARKS = "。.! "


def _folded(text: str) -> str:
    """The comparable form of a line or a word: NFKC, trimmed, lower case, 【】 and end marks removed."""
    text = normalize(text).strip().lower().rstrip(_END_MARKS)
    if len(text) >= 2 and text[0] == "【" and text[-1] == "】":
        text = text[1:-1].strip().rstrip(_END_MARKS)
    return text


def is_word(line: str, words: Sequence[str]) -> bool:
    """Whether `line` is, on its own, one of `words` (empty words never match)."""
    if is_quote(line):
        return False
    folded = _folded(line)
    return bool(folded) and any(folded == _folded(word) for word in words if _folded(word))


def find_words(body: str, words: Sequence[str]) -> list[int]:
    """The 0-based numbers of the lines of `body` that are one of `words`, in reading order."""
    targets = {folded for word in words if (folded := _folded(word))}
    if not targets:
        return []
    return [
        number
        for number, line in enumerate(body.split("\n"))
        if not is_quote(line) and _folded(line) in targets
    ]
