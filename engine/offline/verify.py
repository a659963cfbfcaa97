"""Recomputing every roll the bot made in a thread, from the thread alone.

The bot's posts (known by its trip) hold three kinds of parts, separated by blank lines:
- 【ダイス検証】: `鍵 DAY: HEX` (a day's key, once the day is over) and `鍵のハッシュ(SHA-256) DAY: HEX`;
- an answer: `>>N` then the answer (continued under `>>N（続き）` when it was split across posts);
- a reveal: `>>N`, 【シークレットダイス公開】, each secret's result and `鍵 シークレットN-i: HEX`.
For every answer whose day key is public, the answer is computed again from post N's text and
compared; every published key is checked against its earlier hash; every revealed secret is
recomputed with its key and checked against the hash its answer showed.

Games with periods add the opening (`【NAME 開始】` with `ピリオド1 … 鍵のハッシュ(SHA-256): HEX`) and a
report per period (`【ピリオドn 更新】` … `鍵 ピリオドn: HEX`, then `次 ピリオドn+1 … 鍵のハッシュ(SHA-256):
HEX`), possibly split over several posts. Every period key is checked against the hash published
before it, and the ruleset named by the opening reads each report back into its structured result
(`Ruleset.read_period`) and recomputes that from the key (`Ruleset.verify_period`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import regex

from engine.clock.periods import RULES_SECRET_HASH, RULES_SECRET_KEY
from engine.dice.answers import REVEAL_HEADING, SECRET_LABEL, secret_label
from engine.dice.disclosure import HASH_LABEL, HEADING, KEY_LABEL
from engine.dice.post import answer_post
from engine.keys import PrefixedSource, day_of, purpose_prefix
from engine.offline.steps import Replay, step_notes, verify_steps
from engine.report import Report
from engine.rng import SeededSource
from engine.ruleset import AuditsPosts, ImmediateRuleset, OrderText, ReplaysThread, Ruleset, VerifiesPeriods
from parser.gm import find_gm_commands

_HEX = r"([0-9a-f]{64})"
_DAY_KEY = regex.compile(rf"^{regex.escape(KEY_LABEL)} (\d{{4}}-\d{{2}}-\d{{2}}): {_HEX}$")
_DAY_HASH = regex.compile(rf"^{regex.escape(HASH_LABEL)} (\d{{4}}-\d{{2}}-\d{{2}}): {_HEX}$")
_RULES_HASH = regex.compile(rf"^{regex.escape(RULES_SECRET_HASH)}: {_HEX}$")
_RULES_KEY = regex.compile(rf"^{regex.escape(RULES_SECRET_KEY)}: {_HEX}")
_SECRET_HASH = regex.compile(rf"^{SECRET_LABEL}(\d+)-(\d+) 鍵のハッシュ\(SHA-256\): {_HEX}$")
_SECRET_KEY = regex.compile(rf"^鍵 {SECRET_LABEL}(\d+)-(\d+): {_HEX}$")
_ANCHOR = regex.compile(r"^>>(\d+)$")
_CONTINUED = regex.compile(r"^>>(\d+)（続き）$")
_OPENING = regex.compile(r"^【(.+) 開始】$")
_PERIOD_HASH = regex.compile(rf"^(?:次 )?ピリオド(\d+)(?: 締切 \S+ \S+)? {regex.escape(HASH_LABEL)}: {_HEX}$")
_RESOLUTION = regex.compile(r"^【ピリオド(\d+) 更新(?:（再処理）)?】$")
_PERIOD_KEY = regex.compile(rf"^{regex.escape(KEY_LABEL)} ピリオド(\d+): {_HEX}$")


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


def _comparable(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().split("\n"))


@dataclass
class _Parts:
    keys: dict[str, tuple[bytes, int]] = field(default_factory=dict)  # day → (key, post it appeared in)
    hashes: dict[str, tuple[str, int]] = field(default_factory=dict)  # day → (hash, first post)
    answers: dict[int, list[str]] = field(default_factory=dict)  # answered post → answer lines
    secret_hashes: dict[tuple[int, int], str] = field(default_factory=dict)
    secret_reveals: dict[tuple[int, int], tuple[bytes, list[str]]] = field(default_factory=dict)
    first_bot_post: int | None = None


def _is_opening(body: str) -> str | None:
    """The game's NAME when `body` is the opening of a game with periods."""
    lines = body.split("\n")
    match = _OPENING.match(lines[0].strip())
    if match and any(_PERIOD_HASH.match(text) for text in lines[1:]):
        return match[1]
    return None


def _openings(posts: Iterable[ThreadPost]) -> dict[int, str]:
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
        elif post.trip in waiting and any(_PERIOD_HASH.match(text) for text in lines):
            number, name = waiting[post.trip]
            found[number] = name
        waiting.pop(post.trip, None)
        if name is None and (match := _OPENING.match(lines[0].strip())):
            waiting[post.trip] = (post.number, match[1])
    return found


def _claims(posts: Iterable[ThreadPost]) -> list[ThreadPost]:
    """The posts that speak as the bot: a 【ダイス検証】 or the opening of a game with periods."""
    marker = f"【{HEADING}】"
    posts = list(posts)
    openings = _openings(posts)
    return [p for p in posts if p.trip and (marker in p.body.split("\n") or p.number in openings)]


def candidate_trips(posts: Iterable[ThreadPost]) -> tuple[str, ...]:
    """Every trip that spoke as the bot (a 【ダイス検証】 or a game's opening), in the order each first
    did: who the bot is, when nothing else says so. More than one: the thread alone cannot tell."""
    return tuple(dict.fromkeys(post.trip for post in _claims(posts) if post.trip))


def _bot_trips(posts: Iterable[ThreadPost]) -> tuple[str, ...]:
    """The bot's trip when none is given: the one that spoke as the bot first (the bot commits its
    keys on its first poll). Anyone else who does so later is an impostor, never trusted."""
    claims = _claims(posts)
    return (claims[0].trip,) if claims and claims[0].trip else ()


def _impostors(posts: Iterable[ThreadPost], bot: tuple[str, ...]) -> list[str]:
    return [
        f">>{p.number} は別のトリップ◆{p.trip}がボットのように書いた投稿です（なりすましとして無視しました）"
        for p in _claims(posts)
        if p.trip not in bot
    ]


def _collect(posts: Sequence[ThreadPost], trips: tuple[str, ...]) -> _Parts:
    parts = _Parts()
    last_answer: int | None = None
    for post in posts:
        if post.trip not in trips:
            continue
        if parts.first_bot_post is None:
            parts.first_bot_post = post.number
        for chunk in post.body.split("\n\n"):
            lines = chunk.split("\n")
            head = lines[0].strip()
            if head == f"【{HEADING}】":
                for text in lines[1:]:
                    if match := _DAY_KEY.match(text):
                        parts.keys.setdefault(match[1], (bytes.fromhex(match[2]), post.number))
                    elif match := _DAY_HASH.match(text):
                        parts.hashes.setdefault(match[1], (match[2], post.number))
            elif (match := _ANCHOR.match(head)) and len(lines) > 1 and lines[1] == f"【{REVEAL_HEADING}】":
                _collect_reveal(int(match[1]), lines[2:], parts)
            elif match := _ANCHOR.match(head):
                last_answer = int(match[1])
                parts.answers[last_answer] = lines[1:]
            elif (match := _CONTINUED.match(head)) and int(match[1]) == last_answer:
                parts.answers[last_answer].extend(lines[1:])
    return parts


def _collect_reveal(number: int, lines: list[str], parts: _Parts) -> None:
    texts: list[str] = []
    for text in lines:
        if match := _SECRET_KEY.match(text):
            parts.secret_reveals[(int(match[1]), int(match[2]))] = (bytes.fromhex(match[3]), texts[1:])
            texts = []
        else:
            texts.append(text)


def _check_rules_secret(posts: Sequence[ThreadPost], trips: tuple[str, ...], result: Verification) -> None:
    """A ruleset's secret dice: the key published at the end against the hash published at the start."""
    digest = key = None
    for post in posts:
        if post.trip not in trips:
            continue
        for text in post.body.split("\n"):
            if digest is None and (match := _RULES_HASH.match(text)):
                digest = match[1]
            elif key is None and (match := _RULES_KEY.match(text)):
                key = bytes.fromhex(match[1])
    if key is None:
        return
    if digest is None:
        result.problems.append("秘密のダイスの鍵が公開されましたが、事前のハッシュがありません")
    elif hashlib.sha256(key).hexdigest() != digest:
        result.keys_checked += 1
        result.problems.append("秘密のダイスの鍵が最初に公開したハッシュと一致しません")
    else:
        result.keys_checked += 1
        result.notes.append("秘密のダイスの鍵は最初に公開したハッシュと一致しました")


def verify_thread(
    thread_key: str,
    posts: Sequence[ThreadPost],
    render: Callable[[Report], str],
    trips: Iterable[str] | None = None,
    rules: Callable[[str], Ruleset | None] | None = None,
    game: Ruleset | None = None,
    known: Iterable[Ruleset] = (),
    scenario: Mapping[str, Any] | None = None,
    gm_trips: Sequence[str] | None = None,
) -> Verification:
    """Check every roll of the bot in `posts`; `render` shows a Report as the board shows it.
    `rules` gives the ruleset of a game with periods from its opening's NAME (None: unknown), whose
    `read_period` and `verify_period` recompute each period's report. `game` is the thread's game
    when the caller knows it: an immediate game's step answers are then told apart from dice answers,
    and its `audit_posts` runs. `known` are the games to name in a mismatch that may be a game step.
    With the game's `scenario` (and its GMs' trips, else those the bot obeyed) every step is replayed
    and its answer recomputed (`engine.offline.steps`)."""
    bot = tuple(trips) if trips else _bot_trips(posts)
    result = Verification(bot_trips=bot)
    if not bot:
        result.notes.append("ボットの投稿（【ダイス検証】か【… 開始】を書いたトリップ）が見つかりません")
        return result
    result.notes += _impostors(posts, bot)
    parts = _collect(posts, bot)
    for day, (key, where) in sorted(parts.keys.items()):
        published = parts.hashes.get(day)
        if published is None:
            result.unverified.append(f"{day} の鍵は >>{where} で公開されましたが、事前のハッシュがありません")
            continue
        result.keys_checked += 1
        if hashlib.sha256(key).hexdigest() != published[0]:
            result.problems.append(
                f"{day} の鍵 (>>{where}) が >>{published[1]} で公開したハッシュと一致しません"
            )
    by_number = {post.number: post for post in posts}
    unverifiable: set[str] = set()
    stepper = game if isinstance(game, ImmediateRuleset) else None
    for number, lines in sorted(parts.answers.items()):
        post = by_number.get(number)
        if stepper is not None and post is not None and _is_step(stepper, post.body):
            result.steps.append(number)
            continue
        problems = len(result.problems)
        _check_answer(thread_key, post, number, lines, parts, render, result, unverifiable)
        if len(result.problems) > problems and post is not None:
            result.problems[-1] += _step_hint(known, post.body)
    for day in sorted(unverifiable):
        result.notes.append(f"{day} の鍵はまだ公開されていないため、その日の回答は検証できません")
    _check_unanswered(thread_key, posts, bot, parts, result)
    _check_secrets(thread_key, by_number, parts, result)
    _check_rules_secret(posts, bot, result)
    _check_periods(_collect_periods(posts, bot), rules, result)
    if stepper is not None and result.steps and scenario is None:
        result.notes.append(_steps_note(stepper, result.steps))
    elif stepper is not None and result.steps:
        days = {day: key for day, (key, _) in parts.keys.items()}
        trips = tuple(gm_trips) if gm_trips is not None else None
        found = verify_steps(thread_key, posts, bot, Replay(stepper, scenario or {}, days, trips), render)
        result.steps_checked += found.checked
        result.steps_matched += found.matched
        result.problems += found.problems
        result.notes += step_notes(found, result.steps)
    ruleset = game or (rules(result.game) if rules is not None and result.game else None)
    _audit(ruleset, posts, bot, result)
    _replay_thread(ruleset, posts, bot, scenario, gm_trips, result)
    return result


def _is_step(game: ImmediateRuleset, body: str) -> bool:
    return isinstance(game.parse_post(body), OrderText)


def _step_hint(known: Iterable[Ruleset], body: str) -> str:
    """For a mismatch that may be a game's answer rather than a dice answer: the games it could be."""
    games = [game for game in known if isinstance(game, ImmediateRuleset) and _is_step(game, body)]
    if not games:
        return ""
    named = "、".join(f"--rules {game.ID}" for game in games)
    return f"（{'・'.join(game.NAME for game in games)}の手番への回答なら、{named} を付けて確かめてください）"


def _steps_note(game: ImmediateRuleset, steps: list[int]) -> str:
    shown = "、".join(f">>{number}" for number in steps[:10]) + (" など" if len(steps) > 10 else "")
    return (
        f"{shown} の {len(steps)} 件は{game.NAME}の手番への回答です：手番の結果はゲームの状態によるため"
        "再計算していません（鍵とハッシュ、ゲームの公開物は照合しています。シナリオを --config か "
        "--scenario で渡すと手番を再計算します）"
    )


def _audit(
    game: Ruleset | None, posts: Sequence[ThreadPost], bot: tuple[str, ...], result: Verification
) -> None:
    if not isinstance(game, AuditsPosts):
        return
    found = game.audit_posts([post.body for post in posts if post.trip in bot])
    if found is None:
        return
    result.audits_checked += found.checked
    result.audits_matched += found.matched
    result.problems += found.problems


def _replay_thread(
    game: Ruleset | None,
    posts: Sequence[ThreadPost],
    bot: tuple[str, ...],
    scenario: Mapping[str, Any] | None,
    gm_trips: Sequence[str] | None,
    result: Verification,
) -> None:
    """A clocked game's periods recomputed from the thread's orders (`Ruleset.replay_thread`), when
    the game can and its scenario is given; without it, a note says how to give it."""
    if not isinstance(game, ReplaysThread) or not result.periods_checked:
        return
    if scenario is None:
        result.notes.append(
            f"{game.NAME}の各ピリオドの結果も命令から再計算するには、--config か --rules と --scenario でシナリオを指定してください"
        )
        return
    thread = [(p.number, f"{p.name}◆{p.trip}" if p.trip else p.name, p.body, p.trip in bot) for p in posts]
    found = game.replay_thread(thread, scenario, gm_trips)
    if found is None:
        return
    result.audits_checked += found.checked
    result.audits_matched += found.matched
    result.problems += found.problems


def _has_dice(body: str) -> bool:
    return answer_post(body, SeededSource(b"\0" * 32)) is not None


def _check_answer(
    thread_key: str,
    post: ThreadPost | None,
    number: int,
    lines: list[str],
    parts: _Parts,
    render: Callable[[Report], str],
    result: Verification,
    unverifiable: set[str],
) -> None:
    if post is None or post.date is None:
        result.notes.append(f">>{number} の元のレスが読めないため、その回答は検証できません")
        return
    if find_gm_commands(post.body) and not _has_dice(post.body):
        return  # the answer to a GM command (or its refusal), not a roll
    for text in lines:
        if match := _SECRET_HASH.match(text):
            parts.secret_hashes[(int(match[1]), int(match[2]))] = match[3]
    day = day_of(post.date)
    if day not in parts.keys:
        unverifiable.add(day)
        return
    public = _comparable("\n".join(text for text in lines if not _SECRET_HASH.match(text)))
    key = parts.keys[day][0]
    expected = answer_post(post.body, PrefixedSource(SeededSource(key), purpose_prefix(thread_key, number)))
    wanted = "" if expected is None else _comparable(render(expected))
    result.checked += 1
    if wanted == public:
        result.matched += 1
    else:
        shown, computed = public.replace("\n", " / "), wanted.replace("\n", " / ")
        result.problems.append(
            f">>{number} への回答が再計算と一致しません（投稿: {shown} ／ 再計算: {computed}）"
        )
    committed = parts.hashes.get(day)
    if committed is not None and committed[1] > number:
        result.notes.append(f">>{number} は {day} の鍵のハッシュ公開 (>>{committed[1]}) より前に書かれました")


def _check_unanswered(
    thread_key: str, posts: Sequence[ThreadPost], bot: tuple[str, ...], parts: _Parts, result: Verification
) -> None:
    """Posts with dice after the bot joined that got no answer: worth a note, not a failure."""
    if parts.first_bot_post is None:
        return
    for post in posts:
        if post.number <= parts.first_bot_post or post.trip in bot or post.number in parts.answers:
            continue
        if _has_dice(post.body):
            result.notes.append(f">>{post.number} のダイスに回答がありません")


def _check_secrets(
    thread_key: str, by_number: dict[int, ThreadPost], parts: _Parts, result: Verification
) -> None:
    for (number, index), (key, shown) in sorted(parts.secret_reveals.items()):
        label = secret_label(number, index)
        committed = parts.secret_hashes.get((number, index))
        if committed is None:
            result.problems.append(f"{label} の鍵が公開されましたが、回答に事前のハッシュがありません")
            continue
        if hashlib.sha256(key).hexdigest() != committed:
            result.problems.append(f"{label} の鍵が回答で示したハッシュと一致しません")
            continue
        post = by_number.get(number)
        if post is None:
            result.notes.append(f"{label}: 元のレスが読めないため結果は検証できません")
            continue
        answer = answer_post(post.body, PrefixedSource(SeededSource(key), purpose_prefix(thread_key, number)))
        hidden = (answer.meta.get("secret", {}) if answer is not None else {}).get(index)
        result.checked += 1
        if hidden is not None and _comparable(hidden) == _comparable("\n".join(shown)):
            result.matched += 1
        else:
            result.problems.append(f"{label} の公開された結果が再計算と一致しません")


# --- games with periods ----------------------------------------------------------------------------


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
    reports: list[_PeriodReport] = field(default_factory=list)


def _collect_periods(posts: Sequence[ThreadPost], trips: tuple[str, ...]) -> _PeriodParts:
    """The opening, every published period hash, and every period report (from its heading to its key
    line, over as many of the bot's posts as the board's limits split it into)."""
    parts = _PeriodParts()
    open_report: _PeriodReport | None = None
    openings = _openings(p for p in posts if p.trip in trips)
    for post in posts:
        if post.trip not in trips:
            continue
        lines = post.body.split("\n")
        name = openings.get(post.number)
        if name is not None and parts.game is None:
            parts.game = name
        for text in lines:
            if match := _PERIOD_HASH.match(text):
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


def _check_periods(
    parts: _PeriodParts, rules: Callable[[str], Ruleset | None] | None, result: Verification
) -> None:
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
    first = 1 if parts.game is not None else min(seen)
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
        return f"ゲームの開始の投稿（【… 開始】）が見つからないため結果は再計算できません（--rules でゲームを指定できます。{keys_only}）"
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
        result.problems.append(f"{label} の鍵が >>{published[1]} で公開したハッシュと一致しません")
    elif published[1] > report.post:
        result.notes.append(f"{label} の鍵のハッシュは更新より後 (>>{published[1]}) に公開されました")
