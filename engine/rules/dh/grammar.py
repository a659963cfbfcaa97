"""The 行動提出 grammar: one line per character, in the forms players post, full or half width.

    名前 C7移動                      名前: C3 攻撃 相手          名前 C3へ移動 相手を攻撃
    名前: D3で能力使用 対象は相手    名前 能力「火球」 対象はC4   名前 待機
    名前 C3 能力 対象は相手 移動先はC5 (強制移動の行き先)       名前 再行動 C4 攻撃 相手
    >>12 名前 D1移動 (an anchor before the name: a correction of the line of post 12)

A line is an order when, after the name, it begins with a square or a deed word (移動・攻撃・能力・
待機・再行動); such a line that cannot be read is a `Rejection` with the reason. Names are checked
against the state when the line is received (`rules.check_order`), not here.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

from parser.numbers import NotANumber, read_number

WAIT, ATTACK, POWER = "待機", "攻撃", "能力"

# A list mark before the name: ・ - * ● ○ ◎ ◇, or a number 1. / 1) / 1、 (１． in NFKC)
_BULLET = regex.compile(r"^(?:[・\-*●○◎◇]+|[0-9]{1,2}\s*[.)、])\s*")
_BRACKETED = regex.compile(
    r"^[【\[(「『]\s*([^】\])」』\s]+?)\s*[】\])」』]\s*[:：]?\s*(?=\S)"
)  # 【会長】C3移動
# An anchor before the name (`>>12 名前 D1移動`): the line answers post 12 — a correction of a line.
_ANCHOR = regex.compile(r"^>>\s*([0-9]{1,7})(?![0-9])\s*[:：]?\s*")
_HEAD = regex.compile(r"^\s*([^\s:：、,]+?)\s*(?:[:：]\s*|\s+)(.+?)\s*$")
# A square as written: a letter and digits of any script, so that `C٣` or `B100` is answered (the
# number is read by parser.numbers: ASCII digits only, three at most) rather than taken for chat.
_SQ = r"[A-Za-z]\p{Nd}+"
_SQUARE = rf"({_SQ})"
_MOVE_VERB = regex.compile(rf"^{_SQUARE}\s*(?:へ|に|まで)?\s*移動(?:して|し)?[\s、,。→]*")
_MOVE_BARE = regex.compile(
    rf"^{_SQUARE}\s*(?:で|へ|に)?(?=$|[\s、,。→]|攻撃|通常攻撃|能力|特殊能力|待機)[\s、,。→]*"
)
_KEYWORD = regex.compile(
    rf"^(?:再行動|移動|攻撃|通常攻撃|(?:特殊)?能力|待機|{_SQ}|\S+?\s*(?:に|を|へ)\s*(?:通常攻撃|攻撃|(?:特殊)?能力))"
)
_DEED_WORD = regex.compile(r"移動|攻撃|能力|待機")
_ATTACK_FIRST = regex.compile(r"^(?:通常)?攻撃\s*(?:対象は|対象|→|>)?\s*[:：]?\s*(\S+?)\s*$")
_ATTACK_AFTER = regex.compile(r"^([^\s、,→]+?)\s*(?:に|を|へ)\s*(?:通常)?攻撃\s*$")
# 能力 as the seed names the deed: 特殊能力の使用, 特殊能力「火球」を使用, 能力使用, 能力「火球」.
_USE = r"(?:特殊)?能力\s*(?:の使用|を使用|使用)?"
_NAMED = r"(?:[「（(『【](?P<power>[^」）)』】]+)[」）)』】]\s*(?:を使用|を使う|使用)?)?"
_POWER = regex.compile(
    rf"^{_USE}\s*{_NAMED}\s*"
    r"(?:(?:対象は|対象|→)\s*[:：]?\s*(?P<target>[^\s、,]+(?:\s*[、,]\s*(?!移動先)[^\s、,]+)*))?[\s、,]*"
    rf"(?:移動先\s*(?:は|[:：])?\s*(?P<to>{_SQ}))?\s*$"
)
_POWER_AFTER = regex.compile(rf"^(?P<target>[^\s、,]+?)\s*(?:に|へ|を対象に)\s*{_USE}\s*{_NAMED}\s*$")


@dataclass(frozen=True)
class Command:
    """One character's 行動: where it moves (None: it stays) and its deed (動作)."""

    character: str
    square: str | None = None
    deed: str = WAIT
    target: str | None = None  # a character's name (a power's: names joined by 、), or a square
    power: str | None = None  # which power, when the character has more than one
    to: str | None = None  # 移動先 of a 強制移動
    again: bool = False  # the line of a 再行動
    corrects: int | None = None  # the post a `>>N` before the name answers: the line corrects an earlier one

    @property
    def canonical(self) -> str:
        parts = [f">>{self.corrects}"] if self.corrects is not None else []
        parts.append(self.character)
        if self.again:
            parts.append("再行動")
        if self.square:
            parts.append(f"{self.square}移動")
        if self.deed == ATTACK:
            parts.append(f"攻撃 {self.target}")
        elif self.deed == POWER:
            parts.append(f"能力「{self.power}」" if self.power else "能力")
            if self.target:
                parts.append(f"対象は{self.target}")
            if self.to:
                parts.append(f"移動先は{self.to}")
        else:
            parts.append(WAIT)
        return " ".join(parts)

    @property
    def key(self) -> str:
        """The last line with the same key wins: one per character (and one for its 再行動)."""
        return f"{self.character}/再行動" if self.again else self.character


@dataclass(frozen=True)
class Refused:
    text: str
    reason: str


class _BadSquare(ValueError):
    """A square whose number is not one (`C٣`, `B99999999`): the reason, for the receipt."""


def _square(text: str) -> str:
    """`c4` → `C4`; `B100` stays B100 (the receipt says it is off the map); a number of another script
    or of many digits is refused with the reason."""
    number = read_number(text[1:], what=f"マス「{text[:12]}」の番号", digits=3)
    if isinstance(number, NotANumber):
        raise _BadSquare(number.reason)
    return f"{text[0].upper()}{number}"


def _target(text: str | None) -> str | None:
    """A target as written: a square (`Ｃ４` → `C4`), a name, or several names joined by 、."""
    if text is None:
        return None
    parts = [part.strip() for part in regex.split(r"[、,]", text) if part.strip()]
    return "、".join(_square(part) if regex.fullmatch(_SQ, part) else part for part in parts)


def _deed(rest: str) -> tuple[str, str | None, str | None, str | None] | None:
    """(deed, target, power, to) from what follows the move, or None when it cannot be read."""
    rest = rest.strip(" 、,。")
    if rest in ("", WAIT, "動作待機", "移動のみ"):
        return WAIT, None, None, None
    if match := _ATTACK_FIRST.match(rest) or _ATTACK_AFTER.match(rest):
        return ATTACK, match[1], None, None
    if match := _POWER.match(rest):
        return POWER, _target(match["target"]), match["power"], _square(match["to"]) if match["to"] else None
    if match := _POWER_AFTER.match(rest):
        return POWER, _target(match["target"]), match["power"], None
    return None


_SPACES = regex.compile(r"\s+")


def one_spaced(text: str) -> str:
    """NFKC with every run of spaces one space: the patterns then read a line of any spacing in time
    linear in its length (a run of 20,000 spaces took seconds to backtrack through)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def parse(text: str) -> Command | Refused | None:
    """One line as a character's 行動 (None: not an order line)."""
    line = _BULLET.sub("", one_spaced(text))
    corrects = None
    if anchor := _ANCHOR.match(line):
        corrects, line = int(anchor[1]), _BULLET.sub("", line[anchor.end() :])
    if bracketed := _BRACKETED.match(line):
        line = f"{bracketed[1]} {line[bracketed.end() :]}"
    head = _HEAD.match(line)
    if head is None:
        return None
    name, rest = head[1], head[2]
    if not _KEYWORD.match(rest):
        return None
    again = rest.startswith("再行動")
    rest = rest.removeprefix("再行動").strip(" 、,:")
    square = None
    try:
        if move := _MOVE_VERB.match(rest) or _MOVE_BARE.match(rest):
            square = _square(move[1])
            rest = rest[move.end() :]
        elif rest.startswith("移動"):
            return Refused(line, "移動先のマスを C4 のように書いてください（例：名前 C4移動 攻撃 相手）")
        deed = _deed(rest)
    except _BadSquare as bad:
        return Refused(line, str(bad))
    if deed is None and not _DEED_WORD.search(head[2]):
        return None  # a name, a square and chat: not an order
    if deed is None:
        return Refused(
            line, "動作が読めません（例：名前 C3 攻撃 相手 ／ 名前 D3で能力使用 対象は相手 ／ 名前 待機）"
        )
    kind, target, power, to = deed
    if kind == ATTACK and target is not None and regex.fullmatch(_SQ, target):
        return Refused(line, "通常攻撃の対象はキャラクターの名前で書いてください")
    return Command(name, square, kind, target, power, to, again, corrects)
