"""One game on its thread: read what is new, let the referee decide, store the decisions in one
transaction, send what is owed at the board's pace, and move to the next thread when this one fills.

An idle poll is one HTTP request and one indexed read: the fetch state is kept in memory and written
only when the thread changed, and the referee is asked only when posts came or the clock is due.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from board.tripcode import name_and_trip
from engine import referee
from engine.config import BotConfig, ConfigError, GameConfig, read_text
from engine.dice.disclosure import next_disclosure
from engine.keys import JST, game_seed
from engine.referee import GameSetup, Outgoing, PostView, ThreadView
from engine.ruleset import Registry
from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit
from poster.markup import PostLimits
from poster.outbox import OutboxSender, SendResult, comparable, outbox_rows
from poster.pacing import Pacer
from poster.rollover import Rollover
from poster.writer import BoardWriter
from scraper.fetch import FetchError, FetchResult, FetchState, fetch, first_post_identity
from scraper.gone import GoneWitness
from scraper.http import Reader
from scraper.post import Post
from scraper.refs import NotAThreadURL, ThreadRef
from scraper.settings import BoardLimits, read_limits
from scraper.subject import BoardLists, read_list
from store.changes import Change, Queue
from store.db import PostRecord, Store

if TYPE_CHECKING:  # posting loads requests, with the first post (`poster.writer`)
    import requests

log = logging.getLogger("threadgm")

# Before the bot posts, the board's settings are read again once the last read is this old: a board
# whose owner changes samba or 連投規制 is followed within a minute, and a bot that only reads costs
# the board nothing more.
SETTINGS_MAX_AGE = timedelta(seconds=60)


def thread_url_problem(url: str) -> str | None:
    try:
        ThreadRef.from_url(url)
    except NotAThreadURL as error:
        return str(error)
    return None


def thread_identity(ref: ThreadRef) -> tuple[str, str, str]:
    """One thread whatever URL names it (the 2ch or したらば path, read.cgi or dat)."""
    return ref.base, ref.board.rsplit("/", 1)[-1], ref.key


def reused_id_problem(store: Store, game_id: str, configured: ThreadRef) -> str | None:
    """Why a game cannot start on its configured thread: the database already holds a game of that id
    on another thread (a GM reusing an old database, or an old configuration with a new thread URL,
    for a new table) — run, it would play the old game on there, with no opening. The game's own
    threads, the first and any it moved to (次スレ), are where it goes on."""
    threads = store.threads_of_game(game_id)
    here = thread_identity(configured)
    if not threads or any(thread_identity(ThreadRef.from_url(thread.url)) == here for thread in threads):
        return None
    return (
        f"[[game]] {game_id}: データベース {store.path} には id = {game_id!r} のゲームが別のスレッド"
        f"（{threads[-1].url}）で既にあります。このまま動かすと {configured.read_url} で前のゲームの"
        "続きになるため始めません。新しい卓なら [[game]] の id を別の名前にするか、[bot] の database を"
        "別のファイルにしてください（前のゲームの続きなら thread を元のスレッドに戻してください）"
    )


def taken_thread_problem(store: Store, game_id: str, configured: ThreadRef) -> str | None:
    """Why a game cannot start on its configured thread: the database holds that thread for a game of
    another id (an old table's configuration with a new id) — one thread holds one game only."""
    row = store.lookup("select game_id from threads where id = ?", [configured.id])
    if row is None or row[0] == game_id:
        return None
    return (
        f"[[game]] {game_id}: データベース {store.path} ではスレッド {configured.read_url} は既に"
        f"id = {row[0]!r} のゲームのスレッドです（1つのスレッドにゲームは1つだけです）。新しい卓なら"
        " thread を新しいスレッドにするか、[bot] の database を別のファイルにしてください"
        f"（前のゲームの続きなら id を {row[0]!r} に戻してください）"
    )


def _record(thread_id: str, p: Post) -> PostRecord:
    return PostRecord(
        thread_id, p.number, p.name, p.trip, p.mail, p.date, p.id, p.body, p.raw, p.title, p.deleted, p.system
    )


@dataclass
class TickResult:
    read: str = ""  # the fetch outcome
    new_posts: int = 0  # posts of others that arrived
    queued: int = 0
    sent: int = 0
    note: str = ""
    wake_at: datetime | None = None  # something owed may go then: poll again no later


class ThreadBot:
    """One game on its thread (and, for a while after a rollover, the old thread it still owes), played
    by the ruleset `registry` holds under the game's `rules` (the registry its configuration was
    checked against). A scenario file that cannot be read, or a game id the database holds on another
    thread (`reused_id_problem`), or a thread it holds for another game (`taken_thread_problem`), raises
    ConfigError."""

    def __init__(
        self,
        game: GameConfig,
        bot: BotConfig,
        store: Store,
        session: requests.Session,
        clock: Callable[[], datetime] = lambda: datetime.now(JST),
        pacer: Pacer | None = None,
        *,
        registry: Registry,
        reader: Reader | requests.Session | None = None,
        lists: BoardLists | None = None,
    ) -> None:
        self.game = game
        self.store = store
        self.session = session
        self.reader = reader or session  # the polls' GETs (scraper.http: lighter than requests)
        self.lists = lists or BoardLists(self.reader)  # one per process: the games of a board share it
        self.clock = clock
        configured = ThreadRef.from_url(game.thread)
        problem = reused_id_problem(store, game.id, configured) or taken_thread_problem(store, game.id, configured)
        if problem is not None:
            raise ConfigError(problem)  # before any row is written
        store.ensure_thread(configured.id, game.thread, str(configured.dialect), game.id)
        fixed = game_seed(game.seed) if game.seed is not None else None
        record = store.game(game.id, game.rules, configured.id, clock(), secret=fixed)
        threads_of_game = store.threads_of_game(game.id)
        # After a rollover the game lives on in the newest thread it opened; an older one may still
        # owe the rest of a report and the link.
        self.ref = ThreadRef.from_url(threads_of_game[-1].url) if threads_of_game else configured
        self.draining = [ThreadRef.from_url(t.url) for t in threads_of_game[:-1] if t.status == "draining"]
        self.name, self.trip = name_and_trip(bot.name)
        self.pacer = pacer or Pacer(bot.pace_seconds)
        # 連投規制 where the board publishes none (a board's own timeclose/timecount wins)
        self._configured_in_a_row = ConsecutiveLimit.of(bot.consecutive_limit, bot.consecutive_window)
        self.writer = BoardWriter(session, bot.name, bot.mail)
        self.sender = OutboxSender(store, self.writer, clock, self.is_own, self.pacer)
        self.rollover = Rollover(game.id, store, self.writer, self.sender, game.title)
        self.limits: BoardLimits | None = None
        self._known_limits: BoardLimits | None = None  # the last limits read of the current thread
        self._limits_at: datetime | None = None  # when the board's settings were last read
        self._states: dict[str, FetchState] = {}  # what each thread's reads hold, kept in memory
        self._active_at = store.thread(self.ref.id).active_at
        self._ask_referee = True  # at start: the opening, and any post a crash left unanswered
        self._gone = GoneWitness()
        self._faults = 0  # reads in a row that failed: the polls back off
        self._next_event: datetime | None = None
        self.setup = GameSetup.configured(
            game,
            registry.get(game.rules),
            record.secret,
            record.created_at,
            read_text(game.scenario) if game.scenario else None,
            thread_url_problem,
        )

    @property
    def thread_id(self) -> str:
        return self.ref.id

    @property
    def thread(self) -> ThreadView:
        return ThreadView(self.ref.id, self.ref.key, self.ref.read_url)

    def is_own(self, post: PostRecord) -> bool:
        """The bot's post: its trip proves it, and so does a body the bot sent there or the number
        one of its posts was found at — a trip garbled on the way (or no trip at all) must never
        make the bot answer itself. A name alone proves nothing: anyone can type it."""
        return self.own_test(post.thread_id)(post)

    def own_test(self, thread_id: str) -> Callable[[PostRecord], bool]:
        """`is_own` for the posts of one read: the thread's outbox is looked at once."""
        rows = self.store.outbox(thread_id, ["sending", "sent"])
        bodies = {comparable(row.sent_body or row.body) for row in rows}
        numbers = {row.sent_number for row in rows if row.sent_number}

        def own(post: PostRecord) -> bool:
            if self.trip and post.trip == self.trip:
                return True
            return post.number in numbers or comparable(post.body) in bodies

        return own

    def _others_after(self, number: int, thread_id: str | None = None) -> bool:
        posts = self.store.posts_after(thread_id or self.thread_id, number)
        return any(not post.own for post in posts)

    def interval(self, now: datetime) -> float:
        """Poll fast while people write, slowly once the thread has been quiet for a while; after
        reads that failed, longer each time (up to the quiet interval): a board in trouble is not
        hammered."""
        quiet = (
            self._active_at is None
            or (now - datetime.fromisoformat(self._active_at)).total_seconds() > self.game.idle_after
        )
        base = self.game.idle_seconds if quiet else self.game.poll_seconds
        if not self._faults:
            return base
        return max(base, min(self.game.poll_seconds * 2 ** min(self._faults, 16), self.game.idle_seconds))

    def next_event(self) -> datetime | None:
        """When the game's clock next needs the referee (a deadline, a reminder), as last computed."""
        return self._next_event

    # -- one poll ---------------------------------------------------------------------------------

    def tick(self) -> TickResult:
        now = self.clock()
        drained = [self._drain(old, now) for old in list(self.draining)]
        tick = self._poll(now)
        tick.wake_at = min((at for at in [tick.wake_at, *drained] if at is not None), default=None)
        return tick

    def _poll(self, now: datetime) -> TickResult:
        thread = self.store.thread(self.thread_id)
        if thread.status != "active":
            return TickResult(note=f"thread is {thread.status}: {thread.status_note}")
        limits = self._limits()
        result = self._read_thread(now)
        if isinstance(result, TickResult):
            return result
        fresh = self._store_read(self.ref, result, now)
        owes = self.store.owes(self.thread_id)
        # Whether an unconfirmed post landed can only be told from a whole read: a cut answer may
        # end just before it. Sending waits too, so answers keep their order.
        if result.complete and owes:
            self.sender.reconcile(self.thread_id)
        queued, follow = self._referee_if_needed(fresh, now)
        last_number, others = result.state.last_number, sum(not post.own for post in fresh)
        if follow is not None:  # the GM's 次スレ: the old thread drains what it owes
            self._move_to(ThreadRef.from_url(follow), "次スレ（GM）", now)
            return TickResult(result.outcome, others, queued, note=f"moved to {follow}", wake_at=now)
        if last_number >= limits.res_max or any(post.system for post in result.posts):
            note = self._thread_full(f"the thread reached its limit of {limits.res_max} posts", now)
            return TickResult(result.outcome, others, queued, note=note, wake_at=now)
        if not result.complete:
            waiting = "the read ended inside a post: sending after a whole read"
            return TickResult(result.outcome, others, queued, note=waiting)
        # The next part opens before the old thread runs short: while there is room for the link and
        # for what began there. It takes the board's next slot; the old thread's posts wait for it.
        if self.game.rollover_at and self._room(last_number, owes or bool(queued)) <= self.game.rollover_at:
            thread_id = self.thread_id
            note, held = self._roll_over(now, written=last_number)
            if self.thread_id != thread_id or held is not None:
                return TickResult(result.outcome, others, queued, note=note, wake_at=held or now)
        sent = SendResult()
        if owes or queued:
            self._refresh_limits(now)
            sent = self.sender.send(
                self.ref,
                self.thread_id,
                last_number,
                self._others_after,
                self._post_limits(),
                self._in_a_row(),
                game_over=self.store.game_status(self.game.id) == "finished",
            )
        tick = TickResult(result.outcome, others, queued, sent.sent, sent.waiting or "", sent.wake_at)
        if sent.closed:
            tick.note = self._thread_full(sent.closed, now)
        return tick

    def _referee_if_needed(self, fresh: list[PostRecord], now: datetime) -> tuple[int, str | None]:
        """The referee, when there is something for it: posts to answer, the clock, or a first look."""
        due = self._next_event is not None and self._next_event <= now
        if self._ask_referee or due or any(not post.handled for post in fresh):
            return self._referee(now)
        return 0, None

    def _limits(self) -> BoardLimits:
        if self.limits is None:
            # A read that fails keeps what the board said before (the defaults the first time).
            self.limits = read_limits(self.reader, self.ref) or self._known_limits or BoardLimits()
            self._known_limits, self._limits_at = self.limits, self.clock()
            self.store.set_res_max(self.thread_id, self.limits.res_max)
            self.pacer.announce(self.ref.origin, self.limits.samba, self.ref.board)
        return self.limits

    def _refresh_limits(self, now: datetime) -> None:
        """Read the board's settings again before posting, once the last read is SETTINGS_MAX_AGE old."""
        if self._limits_at is None or now - self._limits_at >= SETTINGS_MAX_AGE:
            self.limits = None
            self._limits()

    def _post_limits(self) -> PostLimits:
        limits = self.limits or BoardLimits()
        return PostLimits(limits.lines, limits.chars, limits.columns, self.ref.encoding)

    def _in_a_row(self) -> ConsecutiveLimit | None:
        """連投規制 of the thread: the board's timeclose/timecount, else the configured one."""
        published = (self.limits or BoardLimits()).consecutive
        return ConsecutiveLimit.of(*published) if published else self._configured_in_a_row

    def _render_limits(self) -> PostLimits:
        """Where 連投規制 may make any post the last allowed one, every part leaves room for saying so."""
        limits = self._post_limits()
        if self._in_a_row() is None:
            return limits
        return PostLimits(
            limits.lines - 2, limits.chars - len(HOLD_NOTICE) - 2, limits.columns, limits.encoding
        )

    def _room(self, last_number: int, owes: bool = True) -> int:
        """Posts the thread still takes once what is owed there is sent (each row a post at most)."""
        owed = len(self.store.outbox(self.thread_id, ["pending", "sending"])) if owes else 0
        return self._limits().res_max - last_number - owed

    def _read(self, ref: ThreadRef) -> FetchResult:
        state = self._states.get(ref.id)
        if state is None:
            record = self.store.thread(ref.id)
            first = self.store.post(ref.id, 1)  # a whole read must show it again: it is the thread
            known = first_post_identity(first) if first and not first.deleted else None
            state = FetchState(record.size, record.last_modified, record.last_number, first_post=known)
            self._states[ref.id] = state
        return fetch(self.reader, ref, state, html=self.game.read == "html")

    def _store_read(self, ref: ThreadRef, result: FetchResult, now: datetime) -> list[PostRecord]:
        """What a read brought, stored when it changed anything (an idle 304 writes nothing)."""
        if not result.posts and result.state == self._states[ref.id]:
            return []
        fresh = self.store.record_fetch(
            ref.id,
            size=result.state.size,
            last_modified=result.state.last_modified,
            last_number=result.state.last_number,
            posts=[_record(ref.id, post) for post in result.posts],
            now=now,
            is_own=self.own_test(ref.id),
        )
        self._states[ref.id] = result.state
        if ref.id == self.thread_id and any(not post.own for post in fresh):
            self._active_at = now.isoformat()
        return fresh

    def _read_thread(self, now: datetime) -> FetchResult | TickResult:
        """The game's thread read, or why not (a fault, a sign that it is gone, proof of that)."""
        try:
            result = self._read(self.ref)
        except FetchError as error:
            self._faults += 1
            log.warning("%s: could not read the thread: %s (trying again next poll)", self.game.id, error)
            return TickResult(read="error", note=str(error))
        if result.outcome == "gone":
            return self._gone_sign(result.note, now)
        self._faults = 0
        self._gone.reset()
        if self._gone.needs_list(now):  # the board's list as it is while the thread can be read
            self._gone.known(self.lists.current(self.ref, now), now)
        return result

    def _gone_sign(self, note: str, now: datetime) -> TickResult:
        """A read said the thread is not there. One answer is not enough to give a game up: a proxy
        or a maintenance page can say so for a moment. Proof is `scraper.gone`'s."""
        proven, why = self._gone.observe(self.ref.key, note, read_list(self.reader, self.ref), now)
        if not proven:
            self._faults += 1
            log.warning(
                "%s: the board answered %s for the thread, but that is no proof it is gone (%s); "
                "trying again next poll",
                self.game.id,
                note,
                why,
            )
            return TickResult(read="error", note=f"{note}: {why}")
        self.store.set_thread_status(self.thread_id, "gone", why)
        log.error("%s: the thread is gone from the board (%s); stopping this game", self.game.id, why)
        return TickResult(read="gone", note=why)

    def _referee(self, now: datetime) -> tuple[int, str | None]:
        """The referee's decisions for the posts not yet handled, stored in one transaction."""
        posts = [
            PostView(p.number, p.name, p.trip, p.date, p.body, p.poster_id)
            for p in self.store.unhandled_posts(self.thread_id)
        ]
        decisions = referee.poll(self.setup, self.thread, self.store, posts, now)
        queued = self.store.apply(self._rendered(decisions.changes, now))
        self._ask_referee = False
        if self.setup.clocked:
            self._next_event = referee.next_event(self.setup, self.thread, self.store, now)
        else:  # a game answering at once still publishes each day's key when the day is over
            self._next_event = next_disclosure(now)
        return queued, decisions.move_to

    def _rendered(self, changes: list[Change | Outgoing], now: datetime) -> list[Change]:
        return outbox_rows(changes, self.thread_id, self._render_limits(), now)

    # -- threads ----------------------------------------------------------------------------------

    def _thread_full(self, note: str, now: datetime) -> str:
        self.store.set_thread_status(self.thread_id, "closed", note)
        pending = len(self.store.outbox(self.thread_id, ["pending", "sending"]))
        log.error("%s: the thread is closed (%s); %d answer(s) kept unsent", self.game.id, note, pending)
        if self.game.rollover_at or not self.setup.ruleset.immediate:
            return f"{note}; {self._roll_over(now, written=None)[0]}"
        return note

    def _roll_over(self, now: datetime, *, written: int | None) -> tuple[str, datetime | None]:
        """Open the next part; `written`: the old thread's posts so far (None: it takes no more).
        What happened, and when the board's pace lets it be tried again (None: not held)."""
        what, target, held = self.rollover.open_next(
            self.ref,
            self.setup.ruleset.NAME,
            now,
            old_writable=written is not None,
            free=self._limits().res_max - written if written is not None else 0,
            limits=self._post_limits(),
        )
        if target is not None:
            self._switch(target, now)
        return what, held

    def _move_to(self, target: ThreadRef, why: str, now: datetime) -> None:
        self.rollover.move(self.ref, target, why, now, keep_all=True, limits=self._post_limits())
        self._switch(target, now)

    def _switch(self, target: ThreadRef, now: datetime) -> None:
        old = self.ref
        self.ref, self.limits, self._known_limits, self._active_at = target, None, None, None
        self._ask_referee = True
        if self.store.thread(old.id).status == "draining":
            self.draining.append(old)
            self._drain(old, now)  # the link at once, where the board's pace allows

    def _drain(self, old: ThreadRef, now: datetime) -> datetime | None:
        """Send what an old thread still owes (the link, the rest of a report begun there); once it
        owes nothing, the game has left it. Returns when to look again, if sooner than a poll."""
        try:
            result = self._read(old)
        except FetchError as error:
            log.warning("%s: could not read the old thread: %s (trying again next poll)", self.game.id, error)
            return None
        if result.outcome == "gone":
            listed = read_list(self.reader, old)
            if listed is None or old.key in listed:  # a passing 404 or a bogus list: no proof
                log.warning(
                    "%s: the old thread answered %s but subject.txt %s; trying again next poll",
                    self.game.id,
                    result.note,
                    "could not be read" if listed is None else "still lists it",
                )
                return None
            sent = SendResult(closed=result.note)
        else:
            self._store_read(old, result, now)
            if not result.complete:
                return None
            self.sender.reconcile(old.id)
            sent = self.sender.send(
                old,
                old.id,
                result.state.last_number,
                lambda number: self._others_after(number, old.id),
                self._post_limits(),
                self._in_a_row(),
                game_over=True,  # the game goes on in the new thread: this one is not held
            )
        if sent.closed:  # what the old thread can no longer take goes on in the new one
            self.rollover.carry_over(old, self.ref, now, self._post_limits())
        if sent.closed or not self.store.owes(old.id):
            self.store.set_thread_status(old.id, "moved", sent.closed or f"次スレ: {self.ref.read_url}")
            self.draining.remove(old)
            self._states.pop(old.id, None)
        return sent.wake_at

    def refolded(self) -> dict[int, str]:
        """Every period's state folded again from the log (the stored snapshots are a cache)."""
        return referee.refold(
            referee.Game(self.setup, self.thread, referee.Ledger(self.store, self.game.id), self.clock())
        )

    def queue_reveal(self, number: int) -> str:
        """Queue the post that opens post `number`'s secret rolls; returns what was queued, or raises
        ValueError with the reason (in Japanese) when there is nothing to reveal."""
        now = self.clock()
        game = referee.Game(self.setup, self.thread, referee.Ledger(self.store, self.game.id), now)
        referee.reveal(game, number)
        changes = self._rendered(game.book.changes, now)
        self.store.apply(changes)
        return "\n\n".join(change.body for change in changes if isinstance(change, Queue))
