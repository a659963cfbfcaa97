"""The poll loop: every game's next poll on one heap of due times, run by a bounded pool of workers.

No poll is dropped or skipped because another ran long: a poll that comes due while every worker
is busy waits in the heap, and one whose board host already has `per_host` polls in flight waits in
that host's queue (in due order) until one of them ends — it runs as soon as it can, late, and once.
A poll held back by its host is looked at once, not again on every turn of the loop: with 5,000 games
on one board and most of them due, the loop would otherwise go through all of them for each poll.
A poll says when it wants to run next; `wake` brings one forward (the game's clock, or a post that
may go now).

A poll is told when it was due and when it started. The runner counts the next interval from when
it was due while it runs a little late (the polls keep their rate on a loaded machine), and from
when it started once it runs later than half an interval: a backlog (a start with many games, a slow
board) never turns into a burst of polls above the configured rate.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

log = logging.getLogger("threadgm")

Poll = Callable[[float, float], float]  # (when it was due, when it started) -> when it is due next (monotonic)
RETRY_AFTER_FAILURE = 5.0


@dataclass(order=True)
class _Due:
    at: float
    order: int
    key: str = field(compare=False)
    version: int = field(compare=False)


@dataclass
class LoopStats:
    polls: int = 0
    late: deque[float] = field(default_factory=lambda: deque(maxlen=10_000))  # seconds after due

    def late_percentile(self, share: float) -> float:
        ordered = sorted(self.late)
        return ordered[min(int(share * len(ordered)), len(ordered) - 1)] if ordered else 0.0


class PollLoop:
    """Runs each key's poll at its due time, at most `workers` at once and `per_host` per host."""

    def __init__(
        self, workers: int = 8, per_host: int = 4, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.workers = workers
        self.per_host = per_host
        self.clock = clock
        self.stats = LoopStats()
        self._polls: dict[str, tuple[str, Poll]] = {}
        self._heap: list[_Due] = []
        self._versions: dict[str, int] = defaultdict(int)
        self._running: set[str] = set()
        self._again: set[str] = set()  # woken while running: poll again as soon as it ends
        self._busy: dict[str, int] = defaultdict(int)  # polls in flight per host
        self._held: dict[str, deque[_Due]] = defaultdict(deque)  # due, held back by their host's limit
        self._order = itertools.count()
        self._cond = threading.Condition()
        self._stopping = False
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="poll")
        self._thread = threading.Thread(target=self._dispatch, name="poll-loop", daemon=True)

    def add(self, key: str, host: str, poll: Poll, at: float | None = None) -> None:
        with self._cond:
            self._polls[key] = (host, poll)
            self._schedule(key, self.clock() if at is None else at)

    def wake(self, key: str) -> None:
        """Poll `key` now (or right after the poll in flight)."""
        with self._cond:
            if key not in self._polls:
                return
            if key in self._running:
                self._again.add(key)
            else:
                self._schedule(key, self.clock())

    def start(self) -> PollLoop:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Start no new poll; wait for the polls in flight to finish."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()
        self._pool.shutdown(wait=True)

    # -- inside ----------------------------------------------------------------------------------

    def _schedule(self, key: str, at: float) -> None:
        self._versions[key] += 1
        heapq.heappush(self._heap, _Due(at, next(self._order), key, self._versions[key]))
        self._cond.notify_all()

    def _dispatch(self) -> None:
        with self._cond:
            while not self._stopping:
                now = self.clock()
                while self._heap and self._heap[0].at <= now and len(self._running) < self.workers:
                    due = heapq.heappop(self._heap)
                    if due.version != self._versions[due.key]:
                        continue  # rescheduled since
                    host, poll = self._polls[due.key]
                    if self._busy[host] >= self.per_host:
                        self._held[host].append(due)  # back in the heap when one of the host's polls ends
                        continue
                    self._running.add(due.key)
                    self._busy[host] += 1
                    self.stats.polls += 1
                    self.stats.late.append(now - due.at)
                    self._pool.submit(self._run, due, now, host, poll)
                busy = len(self._running) >= self.workers
                timeout = None if busy or not self._heap else max(self._heap[0].at - now, 0)
                self._cond.wait(timeout)

    def _release(self, host: str) -> None:
        """One of `host`'s polls ended: the first poll it held back (still current) is due again."""
        held = self._held.get(host)
        while held:
            due = held.popleft()
            if due.version == self._versions[due.key]:
                heapq.heappush(self._heap, due)
                return

    def _run(self, due: _Due, started: float, host: str, poll: Poll) -> None:
        try:
            following = poll(due.at, started)
        except Exception:  # a bug in one game must not stop the others, nor this one's next poll
            log.exception("%s: the poll failed", due.key)
            following = self.clock() + RETRY_AFTER_FAILURE
        with self._cond:
            self._running.discard(due.key)
            self._busy[host] -= 1
            self._release(host)
            # A poll that ran late is not made up for: it is due again no earlier than now.
            following = max(following, self.clock())
            if due.key in self._again:
                self._again.discard(due.key)
                following = self.clock()
            if not self._stopping:
                self._schedule(due.key, following)
            self._cond.notify_all()
