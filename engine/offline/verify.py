"""Recomputing every roll the bot made in a thread, from the thread alone.

The bot's posts (known by its trip) hold three kinds of parts, separated by blank lines:
- 【ダイス検証】: `鍵 DAY: HEX` (a day's key, once the day is over) and `鍵のハッシュ(SHA-256) DAY: HEX`;
- an answer: `>>N` then the answer (continued under `>>N（続き）` when it was split across posts);
- a reveal: `>>N`, 【シークレットダイス公開】, each secret's result and `鍵 シークレットN-i: HEX`.
For every answer whose day key is public, the answer is computed again from post N's text and
compared; every published key is checked against its earlier hash; every revealed secret is
recomputed with its key and checked against the hash its answer showed.

Games with periods add the opening and a report per period, checked by `engine.offline.period_reports`;
a game that went on in its next thread lends each part what the others published
(`engine.offline.other_parts`: one post numbered CARRIED before the thread's own).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from engine.clock.periods import RULES_SECRET_KEY
from engine.dice.answers import REVEAL_HEADING, SECRET_LABEL, secret_label
from engine.dice.disclosure import HEADING
from engine.dice.post import answer_post
from engine.keys import PrefixedSource, day_of, purpose_prefix
from engine.offline.period_reports import check_periods
from engine.offline.steps import Replay, step_notes, verify_steps
from engine.offline.thread_posts import (
    CARRIED,
    DAY_HASH,
    DAY_KEY,
    HEX,
    RULES_HASH,
    ThreadPost,
    Verification,
    at,
    openings,
)
from engine.report import Report
from engine.rng import SeededSource
from engine.ruleset import AuditsPosts, ImmediateRuleset, OrderText, ReplaysThread, Ruleset
from parser.gm import find_gm_commands

_RULES_KEY = regex.compile(rf"^{regex.escape(RULES_SECRET_KEY)}: {HEX}")
_SECRET_HASH = regex.compile(rf"^{SECRET_LABEL}(\d+)-(\d+) 鍵のハッシュ\(SHA-256\): {HEX}$")
_SECRET_KEY = regex.compile(rf"^鍵 {SECRET_LABEL}(\d+)-(\d+): {HEX}$")
_ANCHOR = regex.compile(r"^>>(\d+)$")
_CONTINUED = regex.compile(r"^>>(\d+)（続き）$")


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


def _claims(posts: Iterable[ThreadPost]) -> list[ThreadPost]:
    """The posts that speak as the bot: a 【ダイス検証】 or the opening of a game with periods."""
    marker = f"【{HEADING}】"
    posts = list(posts)
    opening_posts = openings(posts)
    return [p for p in posts if p.trip and (marker in p.body.split("\n") or p.number in opening_posts)]


def candidate_trips(posts: Iterable[ThreadPost]) -> tuple[str, ...]:
    """Every trip that spoke as the bot (a 【ダイス検証】 or a game's opening), in the order each first
    did: who the bot is, when nothing else says so. More than one: the thread alone cannot tell."""
    return tuple(dict.fromkeys(post.trip for post in _claims(posts) if post.trip))


def bot_trips(posts: Iterable[ThreadPost]) -> tuple[str, ...]:
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
        if parts.first_bot_post is None and post.number != CARRIED:
            parts.first_bot_post = post.number
        for chunk in post.body.split("\n\n"):
            lines = chunk.split("\n")
            head = lines[0].strip()
            if head == f"【{HEADING}】":
                for text in lines[1:]:
                    if match := DAY_KEY.match(text):
                        parts.keys.setdefault(match[1], (bytes.fromhex(match[2]), post.number))
                    elif match := DAY_HASH.match(text):
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
            if digest is None and (match := RULES_HASH.match(text)):
                digest = match[1]
            elif key is None and (match := _RULES_KEY.match(text)):
                key = bytes.fromhex(match[1])
    if key is None:
        return
    if digest is None:
        result.unverified.append("秘密のダイスの鍵が公開されましたが、事前のハッシュがありません")
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
    bot = tuple(trips) if trips else bot_trips(posts)
    result = Verification(bot_trips=bot)
    if not bot:
        result.notes.append(
            "ボットの投稿（【ダイス検証】か【… 開始】を書いたトリップ）が見つかりません"
            "（次スレなら前スレも一緒に: threadgm verify 前スレ このスレ。ボットは --trip でも指定できます）"
        )
        return result
    result.notes += _impostors(posts, bot)
    parts = _collect(posts, bot)
    for day, (key, where) in sorted(parts.keys.items()):
        published = parts.hashes.get(day)
        if published is None:
            result.unverified.append(
                f"{day} の鍵は {at(where)} で公開されましたが、事前のハッシュがありません"
            )
            continue
        result.keys_checked += 1
        if hashlib.sha256(key).hexdigest() != published[0]:
            result.problems.append(
                f"{day} の鍵 ({at(where)}) が {at(published[1])} で公開したハッシュと一致しません"
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
    check_periods(posts, bot, rules, result)
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


__all__ = ["ThreadPost", "Verification", "bot_trips", "candidate_trips", "verify_thread"]
