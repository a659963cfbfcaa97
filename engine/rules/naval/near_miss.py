"""A line that looks like a naval order but that the grammar cannot read (issue 25: no silent line),
answered with what is wrong and the nearest form, built from the line's own unit ids.

What looks like an order, by seed 002's words: a line holding a unit id in the page's shape
(`ABC-DD-A-01`, 島-種別-部隊-番号) together with
- an order word of the page (攻撃, インターセプト, 迎撃, 移動, or their kana) or a ＜…＞ tag:
  `攻撃 ABC-DD-A-01 XYZ-DD-X-01`, `＜こうげき＞ABC-DD-A-01、XYZ-DD-X-01`, `＜偵察＞ABC-DD-A-01`,
  `XYZ-DD-X-01をABC-DD-A-01で攻撃`;
- or nothing but the operands of an order, its tag forgotten: `ABC-DD-A-01、XYZ-DD-X-01`,
  `ABC-DD-A-01 (5,6)`.
A line without a unit id stays chat (`攻撃するぞ`, `次は＜攻撃＞するかも`), and so does a line that
names units with no order word (`ABC-DD-A-01がやられた`, `ABC-DD-A-01とXYZ-DD-X-01が同じ海域にいる`).
"""

from __future__ import annotations

import re

from engine.rules.naval.words import CANONICAL_KEYWORD, DASHES, EXAMPLE, KEYWORDS, UNIT_ID, OrderKind

_ID = re.compile(rf"(?<![A-Z0-9-])({UNIT_ID})(?![A-Z0-9-])")
# Searched in the line with its dashes made `-` (the id's IME dashes), which turns インターセプト's ー too.
_WORD = re.compile(
    r"(?P<attack>攻撃|こうげき|コウゲキ)"
    r"|(?P<intercept>インタ[ー-]セプト|いんた[ー-]せぷと|迎撃|げいげき|ゲイゲキ)"
    r"|(?P<move>移動|いどう|イドウ)"
)
_TAG = re.compile(r"<\s*([^<>\s]{1,12})\s*>")
_HEX = re.compile(r"(?<![0-9])([0-9]{1,4})\s*(?:[,、・\-]\s*|\s+)([0-9]{1,4})(?![0-9])")  # 5,6 5-6 (5 6)
# The particle after an id that makes it the target (`XYZ-DD-X-01を攻撃`) or a move's destination.
_TARGET_MARK = {"attack": re.compile(r"\s*(?:を|に|へ)"), "move": re.compile(r"\s*(?:に|へ)")}
_TARGET_MARK["intercept"] = _TARGET_MARK["attack"]
_OPERANDS_ONLY = re.compile(
    rf"\s*{UNIT_ID}(?:\s*[、,]\s*|\s+)(?:{UNIT_ID}|\(?\s*[0-9]+\s*[,、]\s*[0-9]+\s*\)?)\s*"
)
FORMS = "＜攻撃＞＜インターセプト＞＜移動＞"
_TARGET_WHAT = {"attack": "攻撃目標ユニット", "intercept": "迎撃対象の戦闘機", "move": "移動先"}


def _kind_of(word: str) -> OrderKind | None:
    match = _WORD.fullmatch(word)
    return match.lastgroup if match else None  # type: ignore[return-value]


def _written(word: str) -> str:
    """A word of the line as the player wrote it, near enough: the id's dashes made ー again."""
    return word.replace("-", "ー") if _WORD.fullmatch(word) else word


def unreadable(text: str) -> str | None:
    """Why `text` (an NFKC line after its anchor, number and island, which the grammar did not read
    as an order) is an order the grammar cannot read, with the nearest form; None for chat."""
    line = text.translate(DASHES).upper()  # ids in any case and dash; kana and kanji unchanged
    ids = [(match.end(), match[1]) for match in _ID.finditer(line)]
    if not ids:
        return None
    tag, word = _TAG.search(line), _WORD.search(line)
    if tag is None and word is None and not _OPERANDS_ONLY.fullmatch(line):
        return None
    kind = _kind_of(tag[1]) if tag else None
    if tag and kind is None and not (word and word.start() >= tag.end()):
        return f"＜{tag[1]}＞という命令はありません（命令は{FORMS}の3つです。例：{EXAMPLE['attack']}）"
    if kind is None and word is not None:
        kind = word.lastgroup  # type: ignore[assignment]
    head = "命令として読めませんでした。"
    if tag and kind is not None and _written(tag[1]) not in KEYWORDS:
        head = f"＜{_written(tag[1])}＞は＜{CANONICAL_KEYWORD[kind]}＞と書いてください。"
    if kind is None:
        kind = "attack" if len(ids) > 1 else "move"
        head = f"命令の種類（{FORMS}）がありません。"
    return head + _nearest(kind, line, ids)


def _nearest(kind: OrderKind, line: str, ids: list[tuple[int, str]]) -> str:
    """The line the grammar would take, or how to write it when the line lacks the target."""
    near = _line_of(kind, line, ids)
    if near is not None:
        return f"もしかして: {near}"
    keyword, target_what, unit = CANONICAL_KEYWORD[kind], _TARGET_WHAT[kind], ids[0][1]
    return f"{target_what}がありません。書き方：＜{keyword}＞{unit}、{target_what}（例：{EXAMPLE[kind]}）"


def _line_of(kind: OrderKind, line: str, ids: list[tuple[int, str]]) -> str | None:
    """The order line from the ids in the line (the one marked を/に is the target) and, for a move, its
    first hex; None without the operands."""
    keyword = CANONICAL_KEYWORD[kind]
    mark = _TARGET_MARK[kind]
    marked = [unit for end, unit in ids if mark.match(line, end)]
    ordered = list(dict.fromkeys([unit for _, unit in ids if unit not in marked] + marked))
    if kind == "move":
        hex_match = _HEX.search(line, ids[0][0])
        if hex_match:
            return f"＜{keyword}＞{ordered[0]}、({int(hex_match[1])},{int(hex_match[2])})"
    return f"＜{keyword}＞{ordered[0]}、{ordered[1]}" if len(ordered) == 2 else None


def nearest(kind: OrderKind, text: str) -> str | None:
    """The line the grammar would take for an order of `kind` whose operands it could not read
    (`＜移動＞ABC-DD-A-01→(5,6)`, `＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05です`): one unit and a hex, or exactly two
    units; None otherwise."""
    line = text.translate(DASHES).upper()
    ids = [(match.end(), match[1]) for match in _ID.finditer(line)]
    return _line_of(kind, line, ids) if ids else None
