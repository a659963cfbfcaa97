"""Recomputing an immediate game's steps from a thread: the thread's posts replayed through the
referee's own `read_posts` (the code that answered them), from the scenario, with the dice the thread
has published, and every step's answer compared with the bot's.

What the replay knows: the posts the bot answered (each poll taken as the posts between two of the
bot's posts), the day keys published in 【ダイス検証】, the `secret/` streams the ruleset reads back
from what the bot published (`VerifiesSteps.published_secrets`; all of them once the secret dice's
key is out), the scenario and the GMs' trips. A step whose day key is not public yet cannot be
recomputed, nor anything after it (its dice may have changed the state); a step that used a secret
stream the thread has not published is noted and the replay goes on (by the hook's contract such a
stream decides nothing the thread shows).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from engine import keys
from engine.clock.periods import RULES_SECRET_HASH, RULES_SECRET_KEY
from engine.dice.answers import REVEAL_HEADING
from engine.referee.game import Game, GameSetup, PostView, ThreadView
from engine.referee.ledger import Ledger, Outgoing
from engine.referee.posts import read_posts
from engine.report import Report
from engine.rng import Dice, RandomSource, SeededDice, SeededSource, SplitSource
from engine.ruleset import ImmediateRuleset, VerifiesSteps
from parser.gm import find_gm_commands
from parser.numbers import read_number
from store.changes import Log, SaveResolution

REFUSED = "GMのトリップではないため"  # the bot's answer to a GM command from another trip
_PLACEHOLDER = b"\0" * 32  # the faces of dice the thread has not published: never compared


class Posted(Protocol):
    number: int
    trip: str | None
    date: datetime | None
    body: str
    name: str


@dataclass
class StepCheck:
    checked: int = 0
    matched: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared: list[int] = field(default_factory=list)  # the steps recomputed
    pending: int | None = None  # the first step whose day key is not public yet: the replay stops
    sealed: list[int] = field(default_factory=list)  # steps that used unpublished secret dice


@dataclass
class _Dice:
    """What the thread published, and which steps asked for more."""

    days: Mapping[str, bytes]
    secrets: Mapping[str, Sequence[tuple[int, int]]]
    rules_key: bytes | None
    blind: set[int] = field(default_factory=set)  # posts whose public dice are unknown
    sealed: set[int] = field(default_factory=set)  # posts whose secret dice are unknown

    def source(self, thread_key: str, number: int, day: str) -> RandomSource:
        prefix = keys.purpose_prefix(thread_key, number) + "rules/"
        key = self.days.get(day)
        public: RandomSource = _Unknown(self.blind, number) if key is None else SeededSource(key)
        secret: RandomSource = (
            SeededSource(self.rules_key) if self.rules_key is not None else _Published(self, number)
        )
        return SplitSource(keys.PrefixedSource(public, prefix), keys.PrefixedSource(secret, prefix))


class _Unknown:
    """Dice nobody can know yet: rolled on a placeholder key, the post remembered."""

    def __init__(self, marks: set[int], number: int) -> None:
        self.marks, self.number = marks, number

    def stream(self, purpose: str) -> Dice:
        self.marks.add(self.number)
        return SeededDice(_PLACEHOLDER, purpose)


class _Published:
    """A ruleset's secret streams as far as the thread published their faces."""

    def __init__(self, dice: _Dice, number: int) -> None:
        self.dice, self.number = dice, number

    def stream(self, purpose: str) -> Dice:
        name = purpose.partition("/rules/secret/")[2]
        faces = self.dice.secrets.get(name)
        if faces is None:
            return _Unknown(self.dice.sealed, self.number).stream(purpose)
        return _Replayed(list(faces), _Unknown(self.dice.sealed, self.number).stream(purpose))


class _Replayed:
    def __init__(self, faces: list[tuple[int, int]], after: Dice) -> None:
        self.faces, self.after = faces, after

    def roll(self, sides: int) -> int:
        if self.faces and self.faces[0][0] == sides:
            return self.faces.pop(0)[1]
        self.faces.clear()  # asked for other dice than were published: unknown from here on
        return self.after.roll(sides)


@dataclass(frozen=True)
class _ReplaySetup(GameSetup):
    dice_known: _Dice | None = None

    def step_source(self, thread_key: str, number: int, day: str) -> RandomSource:
        assert self.dice_known is not None
        return self.dice_known.source(thread_key, number, day)

    @property
    def rules_secret(self) -> bytes:
        known = self.dice_known.rules_key if self.dice_known is not None else None
        return known if known is not None else _PLACEHOLDER


class _NoLog:
    """An empty store: the replay's log lives in its one `Ledger`."""

    def __init__(self, posts: Mapping[int, PostView]) -> None:
        self.posts = posts

    def orders(self, game_id: str, period: int | None = None, statuses: Any = None) -> list[Any]:
        return []

    def log_entries(self, game_id: str, kinds: Any = None) -> list[Any]:
        return []

    def resolution(self, game_id: str, period: int) -> Any | None:
        return None

    def last_resolution(self, game_id: str) -> Any | None:
        return None

    def periods(self, game_id: str) -> list[Any]:
        return []

    def game_status(self, game_id: str) -> str:
        return "running"

    def game_started(self, game_id: str) -> datetime | None:
        return None

    def post(self, thread_id: str, number: int) -> Any | None:
        return self.posts.get(number)

    def poster_ids(self, thread_id: str) -> dict[int, str]:
        return {number: post.poster_id for number, post in self.posts.items()}


def answers_by_post(bodies: Sequence[str]) -> dict[int, list[list[str]]]:
    """Every answer of the bot's posts (bodies in thread order), by the post it answers, in order; an
    answer continued under `>>N（続き）` joined back. Reveals of secret dice are not answers."""
    found: dict[int, list[list[str]]] = {}
    last: int | None = None
    for body in bodies:
        for chunk in body.split("\n\n"):
            lines = chunk.split("\n")
            head = lines[0].strip()
            if head.startswith(">>") and head.endswith("（続き）") and last is not None:
                if head == f">>{last}（続き）":
                    found[last][-1] += lines[1:]
                continue
            number = read_number(head[2:]) if head.startswith(">>") else None
            if not isinstance(number, int):
                continue
            if len(lines) > 1 and lines[1] == f"【{REVEAL_HEADING}】":
                continue
            last = number
            found.setdefault(last, []).append(lines[1:])
    return found


def rules_key(bodies: Sequence[str]) -> bytes | None:
    """The secret dice's key, once the bot has published it (its hash is checked elsewhere)."""
    for body in bodies:
        for text in body.split("\n"):
            if text.startswith(f"{RULES_SECRET_KEY}: "):
                digits = text.removeprefix(f"{RULES_SECRET_KEY}: ")[:64]
                try:
                    return bytes.fromhex(digits)
                except ValueError:
                    return None
    return None


def _gm_trips(
    posts: Sequence[Posted], answers: Mapping[int, list[list[str]]], ruleset: ImmediateRuleset
) -> tuple[str, ...]:
    """The GMs, as the bot treated them: trips whose GM commands it carried out (not refused), the
    engine's (設定, 巻き戻し…) or the game's own (`VerifiesSteps.obeyed_as_gm`)."""
    return tuple(
        sorted(
            {
                post.trip
                for post in posts
                if post.trip
                and post.number in answers
                and (
                    (
                        find_gm_commands(post.body)
                        and not any(REFUSED in "\n".join(lines) for lines in answers[post.number])
                    )
                    or (
                        isinstance(ruleset, VerifiesSteps)
                        and any(ruleset.obeyed_as_gm(post.body, lines) for lines in answers[post.number])
                    )
                )
            }
        )
    )


def _comparable(lines: Sequence[str]) -> list[str]:
    # The secret dice's hash is checked against its key by verify itself; the replay cannot make it.
    kept = [text.rstrip() for text in lines if not text.startswith(RULES_SECRET_HASH)]
    while kept and not kept[-1]:
        kept.pop()
    return kept


@dataclass(frozen=True)
class Replay:
    """What `verify_steps` needs besides the thread: the game, its scenario and what was published."""

    ruleset: ImmediateRuleset
    scenario: Mapping[str, Any]
    day_keys: Mapping[str, bytes]
    gm_trips: tuple[str, ...] | None = None  # None: the trips whose GM commands the bot carried out


def verify_steps(
    thread_key: str,
    posts: Sequence[Posted],
    bot: tuple[str, ...],
    replay: Replay,
    render: Callable[[Report], str],
) -> StepCheck:
    """Every step the bot answered in `posts`, recomputed and compared with its posted answer."""
    bodies = [post.body for post in posts if post.trip in bot]
    answers = answers_by_post(bodies)
    ruleset = replay.ruleset
    secrets = ruleset.published_secrets(bodies) if isinstance(ruleset, VerifiesSteps) else {}
    dice = _Dice(replay.day_keys, secrets, rules_key(bodies))
    views = {
        post.number: PostView(post.number, post.name, post.trip, post.date, post.body)
        for post in posts
        if post.trip not in bot
    }
    trips = replay.gm_trips if replay.gm_trips is not None else _gm_trips(posts, answers, ruleset)
    earliest = datetime.min.replace(tzinfo=UTC)
    setup = _ReplaySetup(
        "verify", ruleset, b"", earliest, replay.scenario, dice=False, gm_trips=trips, dice_known=dice
    )
    game = Game(setup, ThreadView("verify", thread_key, ""), Ledger(_NoLog(views), setup.id), earliest)
    result = StepCheck()
    fed = 0
    answered = sorted(number for number in views if number in answers)
    for post in (p for p in posts if p.trip in bot):
        batch = [views[n] for n in answered[fed:] if n < post.number]
        if not batch:
            continue
        fed += len(batch)
        game.now = post.date or game.now
        _poll(game, batch, answers, render, result)
        if result.pending is not None:
            break
    return result


def _poll(
    game: Game,
    batch: list[PostView],
    answers: Mapping[int, list[list[str]]],
    render: Callable[[Report], str],
    result: StepCheck,
) -> None:
    """One of the bot's polls again: its steps compared (those whose dice are known)."""
    book = game.book
    first = len(book.changes)
    read_posts(game, batch)
    changes = book.changes[first:]
    steps = [
        int(change.row.outbox_id.removeprefix("post/"))
        for change in changes
        if isinstance(change, SaveResolution) and change.row.outbox_id.startswith("post/")
    ]
    helped = {
        change.post for change in changes if isinstance(change, Log) and change.kind in ("help", "help_full")
    }
    reports = [report for change in changes if isinstance(change, Outgoing) for report in change.reports]
    dice = game.setup.dice_known if isinstance(game.setup, _ReplaySetup) else None
    assert dice is not None
    for number in steps:
        if number in dice.blind:
            result.pending = number
            return
        if number in dice.sealed:
            result.sealed.append(number)
            continue
        mine = [report for report in reports if report.reply_to == (number,)]
        index = 1 if number in helped else 0
        posted = answers.get(number, [])
        if index >= len(mine) or index >= len(posted):
            continue
        result.compared.append(number)
        _compare(number, mine[index], posted[index], render, result)


def _compare(
    number: int, computed: Report, posted: list[str], render: Callable[[Report], str], result: StepCheck
) -> None:
    wanted = _comparable(render(replace(computed, reply_to=())).split("\n"))
    shown = _comparable(posted)
    result.checked += 1
    if wanted == shown:
        result.matched += 1
        return
    at = next(
        (i for i, (a, b) in enumerate(zip(wanted, shown, strict=False)) if a != b),
        min(len(wanted), len(shown)),
    )
    was = shown[at] if at < len(shown) else "（なし）"
    now = wanted[at] if at < len(wanted) else "（なし）"
    result.problems.append(
        f">>{number} の手番の結果が再計算と一致しません（{at + 1}行目 投稿: {was} ／ 再計算: {now}）"
    )


def _shown(numbers: Sequence[int]) -> str:
    return "、".join(f">>{number}" for number in numbers[:10]) + (" など" if len(numbers) > 10 else "")


def step_notes(found: StepCheck, steps: Sequence[int]) -> list[str]:
    """What the replay could not recompute, and why (notes: not yet checkable, not a mismatch)."""
    notes: list[str] = []
    if found.pending is not None:
        later = [number for number in steps if number >= found.pending]
        notes.append(
            f">>{found.pending} 以降の手番 {len(later)} 件は、その日の鍵がまだ公開されていないため再計算していません"
        )
    if found.sealed:
        notes.append(
            f"{_shown(found.sealed)} の手番は、まだ公開されていない秘密のダイスを使うため再計算していません"
        )
    done = {*found.compared, *found.sealed}
    missing = [n for n in steps if n not in done and (found.pending is None or n < found.pending)]
    if missing:
        notes.append(f"{_shown(missing)} は手番への回答ですが、シナリオからの再現では比べられませんでした")
    return notes
