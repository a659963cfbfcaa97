"""Pacing the bot's posts by the board's own numbers, so that it never trips samba.

A board host counts the seconds between one writer's posts (ex0ch's samba: `BBS_SAMBATIME` in
SETTING.TXT, refused with `593 N sec たたないと書けません。(K回目、…)`), and real boards escalate the
count to a ban. The board stamps a post when its CGI handles it: after the request travelled, after
the cookie page's round trip, later still on a loaded machine — at the latest when its answer
arrives. So the pace counts from the moment the board's answer to the bot's last post arrived
(`answered`), never from the moment the bot asked for the slot: per host, a post leaves only once
the host's wait has passed since then, plus a margin; one post is in flight per host at a time; a
refusal pushes the host's next slot out by what the board said. The pacer only says when: the outbox
keeps the post, and reading goes on meanwhile.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import regex

log = logging.getLogger(__name__)

DEFAULT_SECONDS = 10.0  # boards that publish no number (したらば, hidden settings): ex0ch's default
MARGIN_SECONDS = 1.0  # boards count whole seconds, and the two clocks are not the same
# A post in flight longer than this lost its answer somewhere (the writer gives up far sooner: two
# requests of at most 35 s each); the slot is taken back, counted from then.
IN_FLIGHT_MAX = timedelta(seconds=120)
_COUNT = regex.compile(r"(\d+)\s*回目")


def refusal_count(message: str) -> int | None:
    """The board's count of refusals in a samba answer (`(3回目、…)`), when it gives one."""
    match = _COUNT.search(message)
    return int(match[1]) if match else None


@dataclass
class _Host:
    last_post: datetime | None = None  # when the board's answer to the bot's last post arrived
    held_until: datetime | None = None  # the board said: not before then
    in_flight: datetime | None = None  # a post left then and its answer has not arrived yet
    boards: dict[str, float | None] = field(default_factory=dict)  # each board's wait (None: unpublished)


class Pacer:
    """When the bot may next post to each board host (`ThreadRef.origin`); safe across threads.

    Every `claim` that returns None (the slot is taken) is followed by one `answered` once the
    board's answer — whatever it said — has arrived, or the request failed."""

    def __init__(self, default_seconds: float = DEFAULT_SECONDS, margin: float = MARGIN_SECONDS) -> None:
        self.default_seconds = default_seconds
        self.margin = margin
        self._hosts: dict[str, _Host] = {}
        self._lock = threading.Lock()

    def announce(self, host: str, seconds: float | None, board: str = "") -> None:
        """`board` of `host` publishes its wait (None: it publishes none; the default applies). A new
        number replaces the board's old one (samba set to 0 is taken at once); the host is paced by
        the longest wait of its boards."""
        with self._lock:
            self._hosts.setdefault(host, _Host()).boards[board] = seconds

    def remember(self, host: str, posted_at: datetime) -> None:
        """The bot posted to `host` then (from the store when it starts, so a restart waits too)."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            if entry.last_post is None or posted_at > entry.last_post:
                entry.last_post = posted_at

    def wait(self, host: str) -> float:
        """Seconds between two posts to `host`: the board's number plus the margin (0: no pace)."""
        with self._lock:
            return self._wait(self._hosts.setdefault(host, _Host()))

    def _wait(self, entry: _Host) -> float:
        numbers = [self.default_seconds if s is None else s for s in entry.boards.values()]
        seconds = max(numbers) if numbers else self.default_seconds
        return seconds + self.margin if seconds > 0 else 0.0

    def claim(self, host: str, now: datetime) -> datetime | None:
        """Take the host's slot for a post now (None), or say when the next slot may open."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            wait = timedelta(seconds=self._wait(entry))
            if entry.in_flight is not None:
                if now - entry.in_flight < IN_FLIGHT_MAX:
                    # its answer arrives at the earliest now; the next slot opens a wait after that
                    return now + max(wait, timedelta(seconds=1))
                log.warning("%s: a post's answer never arrived; counting the pace from now", host)
                entry.last_post, entry.in_flight = now, None
            opens = [entry.held_until] if entry.held_until else []
            if entry.last_post is not None and wait:
                opens.append(entry.last_post + wait)
            ready = max(opens, default=now)
            if ready > now:
                return ready
            entry.in_flight, entry.held_until = now, None
            return None

    def answered(self, host: str, at: datetime) -> None:
        """The board's answer to the post that took the slot arrived at `at` (the latest moment the
        board can have stamped it), or the request ended without one: the pace counts from `at`."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            entry.in_flight = None
            if entry.last_post is None or at > entry.last_post:
                entry.last_post = at

    def refused(self, host: str, retry_after: float, message: str, now: datetime) -> datetime:
        """The board refused a post for its pace: hold the host for what it asked, plus the margin."""
        until = now + timedelta(seconds=retry_after + self.margin)
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            entry.held_until = max(until, entry.held_until or until)
            until = entry.held_until
        count = refusal_count(message)
        log.warning(
            "%s refused a post for its pace (%s%s); nothing goes there before %s",
            host,
            message[:120],
            f"; the board's count: {count}" if count is not None else "",
            f"{until:%H:%M:%S}",
        )
        return until
