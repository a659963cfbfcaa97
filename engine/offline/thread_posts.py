"""What verify reads in a thread and what it says: a post as verify sees it (`ThreadPost`), the result
(`Verification`), the lines that publish a commitment or a key, and the openings of games with periods.
Apart from `engine.offline.verify` so that the checks of period reports and of a game's other threads
(`period_reports`, `other_parts`) read the same lines without importing the whole verification.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import regex

from engine.clock.periods import RULES_SECRET_HASH
from engine.dice.disclosure import HASH_LABEL, KEY_LABEL

HEX = r"([0-9a-f]{64})"
DAY_KEY = regex.compile(rf"^{regex.escape(KEY_LABEL)} (\d{{4}}-\d{{2}}-\d{{2}}): {HEX}$")
DAY_HASH = regex.compile(rf"^{regex.escape(HASH_LABEL)} (\d{{4}}-\d{{2}}-\d{{2}}): {HEX}$")
RULES_HASH = regex.compile(rf"^{regex.escape(RULES_SECRET_HASH)}: {HEX}$")
_OPENING = regex.compile(r"^【(.+) 開始】$")
PERIOD_HASH = regex.compile(rf"^(?:次 )?ピリオド(\d+)(?: 締切 \S+ \S+)? {regex.escape(HASH_LABEL)}: {HEX}$")
CARRIED = 0  # the number of the post that stands for the game's other threads (`other_parts`)


def at(number: int) -> str:
    """Where a post is, for a message: `>>N`, or the game's other threads."""
    return "前後のスレ" if number == CARRIED else f">>{number}"


@dataclass(frozen=True)
class ThreadPost:
    number: int
    trip: str | None
    date: datetime | None
    body: str
    name: str = ""  # the name field (a game's steps know their author as name◆trip)


@dataclass
class Verification:
    checked: int = 0
    matched: int = 0
    problems: list[str] = field(default_factory=list)  # a mismatch, a wrong key: the bot cannot be trusted
    notes: list[str] = field(default_factory=list)  # not checkable yet, or worth knowing
    # what the thread should hold and does not (a period's report, the hash a key was committed by):
    # nothing there contradicts the bot, but those results cannot be vouched for
    unverified: list[str] = field(default_factory=list)
    bot_trips: tuple[str, ...] = ()
    game: str | None = None  # the NAME of the opening of a game with periods
    periods_checked: int = 0  # period reports the ruleset recomputed from their keys
    periods_matched: int = 0
    keys_checked: int = 0  # published keys compared with the hash published before them
    steps: list[int] = field(default_factory=list)  # posts answered as an immediate game's steps
    steps_checked: int = 0  # steps replayed from the scenario and compared (`verify_steps`)
    steps_matched: int = 0
    audits_checked: int = 0  # the game's own checks (`Ruleset.audit_posts`)
    audits_matched: int = 0

    @property
    def nothing_checked(self) -> bool:
        """Nothing could be compared at all: neither a match nor a mismatch can be claimed."""
        return not (
            self.checked
            or self.periods_checked
            or self.steps_checked
            or self.keys_checked
            or self.audits_checked
            or self.problems
        )

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        lines: list[str] = []
        if self.checked:
            mismatched = self.checked - self.matched
            lines.append(f"回答 {self.checked} 件を再計算: 一致 {self.matched} 件、不一致 {mismatched} 件")
        if self.periods_checked:
            mismatched = self.periods_checked - self.periods_matched
            lines.append(
                f"ピリオド {self.periods_checked} 件の結果を再計算: 一致 {self.periods_matched} 件、不一致 {mismatched} 件"
            )
        if self.steps_checked:
            mismatched = self.steps_checked - self.steps_matched
            lines.append(
                f"手番 {self.steps_checked} 件の結果を再計算: 一致 {self.steps_matched} 件、不一致 {mismatched} 件"
            )
        if self.audits_checked:
            mismatched = self.audits_checked - self.audits_matched
            lines.append(
                f"ゲームの公開物 {self.audits_checked} 件を照合: 一致 {self.audits_matched} 件、不一致 {mismatched} 件"
            )
        if self.keys_checked:
            lines.append(f"公開された鍵 {self.keys_checked} 件を事前のハッシュと照合")
        if not lines:
            lines.append("再計算できる回答はありませんでした")
        lines += [
            *(f"問題: {text}" for text in self.problems),
            *(f"確かめられません: {text}" for text in self.unverified),
            *(f"注意: {text}" for text in self.notes),
        ]
        if self.nothing_checked:
            lines.append("結果: 確かめられるものがありませんでした（一致とも不一致とも言えません）")
        elif not self.ok:
            lines.append("結果: 一致しないものがあります")
        elif self.unverified:
            lines.append(
                "結果: 確かめたものはすべて一致しましたが、スレに欠けているものがあり、その分は確かめられません"
                "（「確かめられません」の行）"
            )
        else:
            lines.append("結果: すべて一致しました")
        return "\n".join(lines)


def _is_opening(body: str) -> str | None:
    """The game's NAME when `body` is the opening of a game with periods."""
    lines = body.split("\n")
    match = _OPENING.match(lines[0].strip())
    if match and any(PERIOD_HASH.match(text) for text in lines[1:]):
        return match[1]
    return None


def openings(posts: Iterable[ThreadPost]) -> dict[int, str]:
    """The openings of games with periods (post number → NAME): `_is_opening`, or a 【NAME 開始】 whose
    first period hash the board's limits pushed into the same trip's next post."""
    found: dict[int, str] = {}
    waiting: dict[str, tuple[int, str]] = {}  # trip → an opening still without its hash
    for post in posts:
        if not post.trip:
            continue
        name = _is_opening(post.body)
        lines = post.body.split("\n")
        if name is not None:
            found[post.number] = name
        elif post.trip in waiting and any(PERIOD_HASH.match(text) for text in lines):
            number, name = waiting[post.trip]
            found[number] = name
        waiting.pop(post.trip, None)
        if name is None and (match := _OPENING.match(lines[0].strip())):
            waiting[post.trip] = (post.number, match[1])
    return found
