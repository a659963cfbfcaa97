"""One game during one poll: its setup, its thread, its log (the `Ledger`) and the time, with the
questions every part of the referee asks — which period is open, what the clock says, what the state
is before a period, whose orders are missing, and the keys of the game's dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine import keys
from engine.clock.gm_actions import clock_adjustments
from engine.clock.periods import ReadOrder
from engine.clock.schedule import PeriodClock, Schedule, parse_schedule
from engine.config import GameConfig
from engine.referee.ledger import Ledger, Outgoing
from engine.report import Report
from engine.rng import RandomSource, SeededSource, SplitSource
from engine.ruleset import Author, Order, OrderText, Ruleset, board_id, players_of, set_value_of
from parser.gm_words import CANCEL_WORDS, READY_WORDS
from store.records import OrderRecord


@dataclass(frozen=True)
class GameSetup:
    """What the configuration and the store fix for a game: it does not change during a poll."""

    id: str
    ruleset: Ruleset
    secret: bytes
    joined: datetime  # when the game joined its thread: earlier posts are not answered
    scenario: Mapping[str, Any] = field(default_factory=dict)
    schedule: Schedule | None = None
    dice: bool = True
    gm_trips: tuple[str, ...] = ()
    cancel_words: tuple[str, ...] = CANCEL_WORDS
    ready_words: tuple[str, ...] = READY_WORDS
    thread_url_problem: Callable[[str], str | None] = lambda url: None  # why 次スレ URL is no thread

    @classmethod
    def configured(
        cls,
        game: GameConfig,
        ruleset: Ruleset,
        secret: bytes,
        joined: datetime,
        scenario_text: str | None,
        thread_url_problem: Callable[[str], str | None] = lambda url: None,
    ) -> GameSetup:
        """A configured game's setup, with the secret and joining time the store keeps for it (the
        bot and every tool that reads its games build it here, so they agree)."""
        return cls(
            game.id,
            ruleset,
            secret,
            joined,
            scenario=ruleset.read_scenario(scenario_text) if scenario_text is not None else {},
            schedule=parse_schedule(game.schedule) if not ruleset.immediate and game.schedule else None,
            dice=game.dice,
            gm_trips=game.gm_trips,
            cancel_words=game.cancel_words,
            ready_words=game.ready_words,
            thread_url_problem=thread_url_problem,
        )

    @property
    def clocked(self) -> bool:
        return not self.ruleset.immediate

    def day_key(self, day: str) -> bytes:
        return keys.period_key(self.secret, self.id, day)

    def period_key(self, period: int) -> bytes:
        return keys.clocked_period_key(self.secret, self.id, period)

    @property
    def rules_secret(self) -> bytes:
        return keys.rules_secret(self.secret, self.id)

    def secret_keys(self, thread_key: str, number: int) -> Callable[[int], bytes]:
        return lambda index: keys.secret_key(self.secret, self.id, thread_key, number, index)

    def step_source(self, thread_key: str, number: int, day: str) -> RandomSource:
        """The dice of an immediate game's step of post `number` (0: its opening), on purposes
        `KEY/N/rules/…`: the day key's streams, and the `secret/` ones under the rules' secret key.
        `verify` replays steps with a setup that answers this from what the thread published."""
        prefix = keys.purpose_prefix(thread_key, number) + "rules/"
        return SplitSource(
            keys.PrefixedSource(SeededSource(self.day_key(day)), prefix),
            keys.PrefixedSource(SeededSource(self.rules_secret), prefix),
        )


@dataclass(frozen=True)
class ThreadView:
    """The thread the game plays in now."""

    id: str
    key: str
    read_url: str


@dataclass(frozen=True)
class PostView:
    """A post as the referee reads it."""

    number: int
    name: str
    trip: str | None
    date: datetime | None
    body: str
    poster_id: str = ""  # the board's ID of the writer (per address and day), when it shows one

    @property
    def author(self) -> str:
        """Who wrote it, as games know players and the log keeps it: name◆trip, or the bare name
        without a trip (`Author`'s stored form)."""
        return str(Author(_typed(self.name), self.trip))

    @property
    def writer(self) -> str:
        """Who wrote it, as far as the board can tell: the trip, else the board's ID, else the name —
        names are free to change, so a budget per writer holds only by what the writer cannot choose."""
        if self.trip:
            return f"◆{self.trip}"
        return f"ID:{self.poster_id}" if self.poster_id else self.name


def _typed(name: str) -> str:
    """A name as typed: a ◆ in it is one the board failed to turn into ◇ (only the board's markup makes
    a trip), written ◇ as boards show it — the stored form `名前◆TRIP` is read back by its ◆, so a name
    holding one could pass for a trip (a GM's, whose trip is public)."""
    return name.replace("◆", "◇")


@dataclass
class Game:
    setup: GameSetup
    thread: ThreadView
    book: Ledger
    now: datetime
    # What each canonical order form reads as, this poll: read once (`command`), or brought along by
    # the order read from a post in this poll (`carry`). A cache of the stored log, gone with the poll.
    _commands: dict[str, OrderText | None] = field(default_factory=dict, repr=False)
    # The board's ID beside each post (where it shows one): this poll's posts as read (`reading`), a
    # thread's stored posts read once a poll. Only ever carried into `Author.id`, never stored again.
    _read_ids: dict[int, str] = field(default_factory=dict, repr=False)
    _stored_ids: dict[str, dict[int, str]] = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        return self.setup.id

    @property
    def ruleset(self) -> Ruleset:
        return self.setup.ruleset

    def send(self, base: str, kind: str, *reports: Report) -> None:
        """Reports to post together (packed into as few posts as the board allows)."""
        if reports:
            self.book.send(Outgoing(base, kind, reports))

    def where(self, post: PostView, period: int | None) -> dict[str, Any]:
        return {"period": period, "post": post.number, "thread_id": self.thread.id, "author": post.author}

    # -- the clock --------------------------------------------------------------------------------

    def clock(self) -> PeriodClock | None:
        """The period clock folded from the game's log (pauses, resumes, extensions, early closes).
        Before the game has begun, the clock it will have: this poll opens it at `now`, so a GM's
        即時更新 or 延長 read in the same poll already has a period to act on."""
        if self.setup.schedule is None:
            return None
        started = self.book.started() or self.now
        entries = self.book.log_entries(["pause", "resume", "extend", "early"])
        return PeriodClock(
            self.setup.schedule, started, clock_adjustments((e.kind, e.args, e.period) for e in entries)
        )

    def period_clock(self) -> PeriodClock:
        """The clock of a game on the clock: every such game has a schedule (the configuration refuses
        one without), so only an immediate game has no clock."""
        clock = self.clock()
        assert clock is not None, f"{self.id}: a game on the clock without a schedule"
        return clock

    def current_period(self) -> int:
        last = self.book.last_resolution()
        return (last.period if last else 0) + 1

    def period_of_post(self, post: PostView) -> int:
        """The period a post's orders are for (a game on the clock): its date's, or the running one."""
        return max(self.period_clock().period_of_post(post.date or self.now), self.current_period())

    def next_event(self) -> datetime | None:
        clock = self.clock()
        if clock is None or self.book.started() is None:
            return self.now  # not started: start at once
        return clock.next_event(self.current_period() - 1, self.now)

    # -- the state --------------------------------------------------------------------------------

    def state_before(self, period: int) -> Any:
        """The state when `period` is resolved: the last resolution's (a cache of the fold), or the
        scenario's; then the GM's 設定 of that period."""
        previous = self.book.resolution(period - 1) if period > 1 else None
        ruleset = self.ruleset
        state = (
            ruleset.state_from_dict(json.loads(previous.state))
            if previous
            else ruleset.initial_state(self.setup.scenario)
        )
        for entry in self.book.log_entries(["set"]):
            if entry.period == period:
                state = set_value_of(ruleset, state, entry.args["path"], entry.args["value"])
        return state

    def state_json(self, state: Any) -> str:
        """A state as the store keeps it: JSON with the game's words as written (readable in the store
        and its exports), what `state_before` reads back."""
        return json.dumps(self.ruleset.state_to_dict(state), ensure_ascii=False)

    def finished(self, state: Any) -> bool:
        return self.ruleset.finished(state)

    def reading(self, posts: Iterable[PostView]) -> None:
        """The posts this poll reads (the store may not hold them yet): their IDs, for their authors."""
        self._read_ids.update((post.number, post.poster_id) for post in posts)

    def author_id(self, thread_id: str, number: int) -> str | None:
        """The board's ID of post `number` of a thread of the game, where it showed one."""
        if thread_id == self.thread.id and number in self._read_ids:
            return board_id(self._read_ids[number])
        if thread_id not in self._stored_ids:
            self._stored_ids[thread_id] = self.book.poster_ids(thread_id)
        return board_id(self._stored_ids[thread_id].get(number, ""))

    def is_gm(self, author: str) -> bool:
        """Whether an order's author (`名前◆TRIP`) writes with one of the configured GMs' trips."""
        trip = Author.of(author).trip
        return trip is not None and trip in self.setup.gm_trips

    def carry(self, order: ReadOrder) -> None:
        """An order read from a post in this poll: its command stands for its canonical form for the
        rest of the poll (the form reads back as the same command: `ReadOrder`)."""
        if order.accepted:
            self._commands.setdefault(order.row.canonical, OrderText(order.command, order.row.canonical))

    def command(self, canonical: str) -> OrderText | None:
        """What a stored order's canonical form reads as (None: it no longer reads as an order), read
        once a poll."""
        if canonical not in self._commands:
            parsed = self.ruleset.parse_line(canonical)
            self._commands[canonical] = parsed if isinstance(parsed, OrderText) else None
        return self._commands[canonical]

    def order(self, row: OrderRecord) -> Order | None:
        """An order row as the rules take it: its command, the post's own date (for rules that time
        it), whether its author is a GM and the post's ID; None when its canonical form no longer
        reads."""
        parsed = self.command(row.canonical)
        if parsed is None:
            return None
        when = datetime.fromisoformat(row.written_at) if row.written_at else None
        gm = self.is_gm(row.author)
        shown = self.author_id(row.thread_id, row.post)
        return Order(
            row.post, row.line, row.author, row.player, parsed.command, row.canonical, when, gm, shown
        )

    def accepted_orders(self, period: int) -> list[Order]:
        """The orders of `period` accepted so far, in the order stored (the receipt's and 状態's view)."""
        rows = self.book.orders(period, ["accepted"])
        return [order for row in rows if (order := self.order(row)) is not None]

    def missing_players(self, period: int) -> list[str]:
        state = self.state_before(period)
        players = self.ruleset.players(state)
        if not players:
            return []
        sent: set[str] = set()
        for order in self.book.orders(period, ["accepted"]):
            # An order names its player; when that is not one of the game's players (a lord who
            # changed name but kept the trip), the game says whom its author speaks for.
            known = order.player in players
            sent.update([order.player] if known else players_of(self.ruleset, state, order.author))
        return [player for player in players if player not in sent]

    def ready_players(self, period: int, state: Any) -> set[str]:
        return {
            player
            for entry in self.book.log_entries(["ready"])
            if entry.period == period
            for player in players_of(self.ruleset, state, entry.args["player"])
        }
