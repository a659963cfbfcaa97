"""The reports of a game with periods, read from a thread and checked: the opening
(`【NAME 開始】` with `ピリオド1 … 鍵のハッシュ(SHA-256): HEX`) and a report per period (`【ピリオドn 更新】` …
`鍵 ピリオドn: HEX`, then `次 ピリオドn+1 … 鍵のハッシュ(SHA-256): HEX`), possibly split over several
posts. Every period key is checked against the hash published before it, the periods the thread
lacks are named, and the ruleset named by the opening reads each report back into its structured
result (`Ruleset.read_period`) and recomputes that from the key (`Ruleset.verify_period`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import regex

from engine.dice.disclosure import KEY_LABEL
from engine.offline.thread_posts import CARRIED, HEX, PERIOD_HASH, ThreadPost, Verification, at, openings
from engine.ruleset import Ruleset, VerifiesPeriods

_RESOLUTION = regex.compile(r"^【ピリオド(\d+) 更新(?:（再処理）)?】$")
_PERIOD_KEY = regex.compile(rf"^{regex.escape(KEY_LABEL)} ピリオド(\d+): {HEX}$")


@dataclass
class _PeriodReport:
    period: int
    post: int  # where it begins
    lines: list[str]
    key: bytes | None = None


@dataclass
class _PeriodParts:
    game: str | None = None
    hashes: dict[int, tuple[str, int]] = field(default_factory=dict)  # period → (hash, first post)
    opened_here: bool = False  # the opening is this thread's (else the game's other threads named it)
    reports: list[_PeriodReport] = field(default_factory=list)


def _collect_periods(posts: Sequence[ThreadPost], trips: tuple[str, ...]) -> _PeriodParts:
    """The opening, every published period hash, and every period report (from its heading to its key
    line, over as many of the bot's posts as the board's limits split it into)."""
    parts = _PeriodParts()
    open_report: _PeriodReport | None = None
    opened = openings(p for p in posts if p.trip in trips)
    for post in posts:
        if post.trip not in trips:
            continue
        lines = post.body.split("\n")
        name = opened.get(post.number)
        if name is not None and parts.game is None:
            parts.game, parts.opened_here = name, post.number != CARRIED
        for text in lines:
            if match := PERIOD_HASH.match(text):
                parts.hashes.setdefault(int(match[1]), (match[2], post.number))
        if match := _RESOLUTION.match(lines[0].strip()):
            open_report = _PeriodReport(int(match[1]), post.number, [])
            parts.reports.append(open_report)
        if open_report is None:
            continue
        for text in lines:
            open_report.lines.append(text)
            key = _PERIOD_KEY.match(text)
            if key and int(key[1]) == open_report.period:
                open_report.key = bytes.fromhex(key[2])
                open_report = None
                break
    return parts


def check_periods(
    posts: Sequence[ThreadPost],
    trips: tuple[str, ...],
    rules: Callable[[str], Ruleset | None] | None,
    result: Verification,
) -> None:
    """Every period report of the bot (`trips`) in `posts`: its key against the hash published before
    it, and its result recomputed by the ruleset `rules` gives for the opening's name."""
    parts = _collect_periods(posts, trips)
    if not parts.reports:
        return
    result.game = parts.game
    # a game named on the command line (`--rules`) is used even when no opening names it
    ruleset = rules(parts.game or "") if rules is not None else None
    result.unverified += _missing_periods(parts)
    recomputed, notes_before = False, len(result.notes)
    for report in parts.reports:
        label = f"ピリオド{report.period} (>>{report.post})"
        if report.key is None:
            result.unverified.append(f"{label} の更新に鍵が見つかりません")
            continue
        _check_period_key(report, label, parts, result)
        result_read = ruleset.read_period(report.lines) if isinstance(ruleset, VerifiesPeriods) else None
        if result_read is None:
            continue
        assert isinstance(ruleset, VerifiesPeriods)
        found = ruleset.verify_period(report.key, result_read)
        recomputed = True
        result.periods_checked += 1
        if found:
            result.problems += [f"{label}: {text}" for text in found]
        else:
            result.periods_matched += 1
    if not recomputed:
        result.notes.insert(notes_before, _not_recomputed(parts.game, ruleset, rules is not None))


def _missing_periods(parts: _PeriodParts) -> list[str]:
    """The periods between the first and the last report that have none in the thread (a post taken
    out): from period 1 when the thread holds the opening, else from its first report (a later part
    of a game that rolled over from an earlier thread)."""
    seen = {report.period for report in parts.reports}
    first = 1 if parts.opened_here else min(seen)
    return [
        f"ピリオド{period} の更新（【ピリオド{period} 更新】）がスレにありません（削除されたか、書き込まれていません）"
        for period in range(first, max(seen))
        if period not in seen
    ]


def _not_recomputed(game: str | None, ruleset: Ruleset | None, looked_up: bool) -> str:
    """Why no period was recomputed, and what to give when something is missing (`looked_up`: the
    games were there to look the opening's name up in)."""
    keys_only = "ピリオドの鍵とハッシュだけを確認しました"
    if ruleset is None and game is None:
        return (
            "ゲームの開始の投稿（【… 開始】）が見つからないため結果は再計算できません（次スレなら前スレも一緒に"
            f"指定してください: threadgm verify 前スレ このスレ。--rules でゲームを指定することもできます。{keys_only}）"
        )
    if ruleset is None and looked_up:
        return f"「{game}」は登録されたゲームではないため結果は再計算できません（--rules でゲームを指定できます。{keys_only}）"
    return f"「{game or ruleset.NAME}」の結果は再計算できません（{keys_only}）"


def _check_period_key(report: _PeriodReport, label: str, parts: _PeriodParts, result: Verification) -> None:
    assert report.key is not None
    published = parts.hashes.get(report.period)
    if published is None:
        result.unverified.append(f"{label} の鍵は公開されましたが、事前のハッシュがありません")
        return
    result.keys_checked += 1
    if hashlib.sha256(report.key).hexdigest() != published[0]:
        result.problems.append(f"{label} の鍵が {at(published[1])} で公開したハッシュと一致しません")
    elif published[1] > report.post:
        result.notes.append(f"{label} の鍵のハッシュは更新より後 (>>{published[1]}) に公開されました")
