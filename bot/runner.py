"""The bot process: every configured game on one poll loop, with APScheduler as the game clocks,
one pacer for every board host (games on one host share its pace), one game page listing them all,
and one process per database (`bot.process_lock`).

The loop polls each thread at its interval (fast while people write, slow when quiet) and sooner
when a held post may go. APScheduler keeps each clocked game's next deadline or reminder and wakes
its poll at that moment, so a period boundary never waits for the next interval. A process with no
game on the clock (dice tables) does not load APScheduler: such a game's one moment, the end of a
dice day (its key is published then), is the poll's own due time, as a held post's is.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, cast

from bot import process_lock
from bot.loop import Poll, PollLoop
from bot.thread_bot import ThreadBot
from engine.config import BotConfig, GameConfig
from engine.keys import JST
from engine.ruleset import Registry
from poster.pacing import Pacer
from scraper.fetch import USER_AGENT, LazySession
from scraper.http import make_reader
from scraper.refs import ThreadRef
from scraper.subject import BoardLists
from store.db import Store

if TYPE_CHECKING:
    import requests
    from apscheduler.schedulers.background import BackgroundScheduler

    from web.server import GamePage

log = logging.getLogger("threadgm")

KEEP_RHYTHM = 0.5  # seconds: a poll this late still counts its next interval from when it was due


class Runner:
    """All games of a configuration, played by the rulesets of `registry` (the one the configuration was
    checked against), until `stop()` (or SIGINT/SIGTERM with `run_until_signalled`)."""

    def __init__(
        self,
        bot: BotConfig,
        games: list[GameConfig],
        registry: Registry,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._lock = process_lock.hold(bot.database)  # AlreadyRunning: another process runs it
        try:
            self._build(bot, games, registry, clock)
        except BaseException:  # a scenario it cannot read, the page's port taken: nothing stays held
            if hasattr(self, "store"):
                self.store.close()
            self._lock.close()
            raise

    def _build(
        self,
        bot: BotConfig,
        games: list[GameConfig],
        registry: Registry,
        clock: Callable[[], datetime] | None,
    ) -> None:
        self.store = Store(bot.database)
        # requests loads with the first post (or a proxy's first read), not at start
        self.session = cast("requests.Session", LazySession(bot.user_agent or USER_AGENT, pool=bot.workers))
        self.pacer = Pacer(bot.pace_seconds, bot.pace_margin)
        for thread_id, sent_at in self.store.last_sent():  # a restart waits out the board's pace too
            self.pacer.remember(ThreadRef.from_url(thread_id).origin, datetime.fromisoformat(sent_at))
        self.clock = clock or (lambda: datetime.now(JST))
        self.reader = make_reader(bot.user_agent or USER_AGENT, pool=bot.workers, fallback=self.session)
        self.lists = BoardLists(self.reader)
        # Every game's first rows in one transaction: a first start of 5,000 games is one commit, not
        # 20,000 (nothing is posted before they are stored; a start cut short stored none of them).
        with self.store.transaction():
            self.bots = [
                ThreadBot(
                    game,
                    bot,
                    self.store,
                    self.session,
                    self.clock,
                    self.pacer,
                    registry=registry,
                    reader=self.reader,
                    lists=self.lists,
                )
                for game in games
            ]
        self.loop = PollLoop(bot.workers, bot.per_host)
        web = bot.web if bot.web is not None and bot.web.enabled else None
        self.page: GamePage | None = None
        if web is not None:  # the page's web stack (werkzeug, jinja2, waitress) loads only to serve it
            from web.server import GamePage

            games_of_page = [(thread_bot.game, thread_bot.setup) for thread_bot in self.bots]
            self.page = GamePage(self.store, games_of_page, web.host, web.port)
        self.scheduler: BackgroundScheduler | None = None
        if any(thread_bot.setup.clocked for thread_bot in self.bots):
            # APScheduler and its imports (asyncio, tzlocal, a process pool's multiprocessing) load
            # for games on the clock only
            from apscheduler.schedulers.background import BackgroundScheduler

            self.scheduler = BackgroundScheduler(timezone=JST)
        self._clock_jobs: dict[str, datetime | None] = {}
        self.stopping = threading.Event()

    def _poll(self, thread_bot: ThreadBot) -> Poll:
        def poll(due: float, started: float) -> float:
            try:
                result = thread_bot.tick()
            except Exception:  # a bug must not stop the other games or the next poll
                log.exception("%s: the poll failed", thread_bot.game.id)
                return time.monotonic() + thread_bot.game.poll_seconds
            if result.new_posts or result.sent or result.queued:
                log.info(
                    "%s: read %s, %d new post(s), %d queued, %d sent %s",
                    thread_bot.game.id,
                    result.read,
                    result.new_posts,
                    result.queued,
                    result.sent,
                    result.note,
                )
            wake_at = result.wake_at
            if thread_bot.setup.clocked:
                self._set_clock(thread_bot)
            elif (event := thread_bot.next_event()) is not None:  # a dice day's end
                wake_at = event if wake_at is None else min(wake_at, event)
            now = thread_bot.clock()
            interval = thread_bot.interval(now)
            # A little late (a loaded machine's jitter), the next poll keeps the rhythm: the rate
            # holds. Later than that (a backlog at start, a slow board), it comes an interval after
            # this one started: a backlog is never a burst, nor kept in step.
            following = (due if started - due < min(interval / 2, KEEP_RHYTHM) else started) + interval
            if wake_at is not None:
                following = min(following, time.monotonic() + max((wake_at - now).total_seconds(), 0))
            return max(following, time.monotonic())

        return poll

    def _set_clock(self, thread_bot: ThreadBot) -> None:
        """The clocked game's next deadline or reminder as an APScheduler job that wakes its poll."""
        assert self.scheduler is not None  # made at start when any game is on the clock
        key = thread_bot.game.id
        event = thread_bot.next_event()
        if self._clock_jobs.get(key) == event:
            return
        self._clock_jobs[key] = event
        job_id = f"{key}/clock"
        if event is None:
            if self.scheduler.get_job(job_id):
                self.scheduler.remove_job(job_id)
            return
        self.scheduler.add_job(
            self.loop.wake,
            "date",
            args=[key],
            run_date=event,
            id=job_id,
            replace_existing=True,
            misfire_grace_time=None,  # a boundary passed while the process slept still counts
        )

    def start(self) -> None:
        if self.scheduler is not None:
            self.scheduler.start()
        for thread_bot in self.bots:
            self.loop.add(thread_bot.game.id, thread_bot.ref.origin, self._poll(thread_bot))
        self.loop.start()
        if self.page is not None:
            self.page.start()
            log.info("game page: %s", self.page.url)

    def run_until_signalled(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: self.stopping.set())
        self.start()
        self.stopping.wait()
        self.stop()

    def stop(self) -> None:
        log.info("stopping: waiting for the running polls to finish")
        self.loop.stop()
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=True)
        if self.page is not None:
            self.page.close()
        self.store.close()
        self._lock.close()
