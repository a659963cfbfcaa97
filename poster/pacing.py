"""Pacing the bot's posts by the board's own numbers, so that it never trips samba.

A board host counts the seconds between one writer's posts (ex0ch's samba: `BBS_SAMBATIME` in
SETTING.TXT, refused with `593 N sec たたないと書けません。(K回目、…)`), and real boards escalate the
count to a ban. So, per host, a post leaves only once the host's wait has passed since the bot's
last post there, plus a margin; a refusal pushes the host's next slot out by what the board said.
The pacer only says when: the outbox keeps the post, and reading goes on meanwhile.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

import regex

log = logging.getLogger(__name__)

DEFAULT_SECONDS = 10.0  # boards that publish no number (したらば, hidden settings): ex0ch's default
MARGIN_SECONDS = 1.0  # boards count whole seconds, and the two clocks are not the same
_COUNT = regex.compile(r"(\d+)\s*回目")


def refusal_count(message: str) -> int | None:
    """The board's count of refusals in a samba answer (`(3回目、…)`), when it gives one."""
    match = _COUNT.search(message)
    return int(match[1]) if match else None


@dataclass
class _Host:
    last_post: datetime | None = None
    held_until: datetime | None = None  # the board said: not before then
    seconds: float | None = None  # the longest wait one of its boards announced


class Pacer:
    """When the bot may next post to each board host (`ThreadRef.origin`); safe across threads."""

    def __init__(self, default_seconds: float = DEFAULT_SECONDS, margin: float = MARGIN_SECONDS) -> None:
        self.default_seconds = default_seconds
        self.margin = margin
        self._hosts: dict[str, _Host] = {}
        self._lock = threading.Lock()

    def announce(self, host: str, seconds: int | None) -> None:
        """A board of `host` publishes its wait (None: it publishes none; the default applies)."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            if seconds is not None:
                entry.seconds = max(seconds, entry.seconds or 0)

    def remember(self, host: str, posted_at: datetime) -> None:
        """The bot posted to `host` then (from the store when it starts, so a restart waits too)."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            if entry.last_post is None or posted_at > entry.last_post:
                entry.last_post = posted_at

    def wait(self, host: str) -> float:
        with self._lock:
            return self._wait(self._hosts.setdefault(host, _Host()))

    def _wait(self, entry: _Host) -> float:
        seconds = self.default_seconds if entry.seconds is None else entry.seconds
        return seconds + self.margin if seconds > 0 else 0.0

    def claim(self, host: str, now: datetime) -> datetime | None:
        """Take the host's slot for a post now (None), or say when the next slot opens."""
        with self._lock:
            entry = self._hosts.setdefault(host, _Host())
            opens = [entry.held_until] if entry.held_until else []
            if entry.last_post is not None:
                opens.append(entry.last_post + timedelta(seconds=self._wait(entry)))
            ready = max(opens, default=now)
            if ready > now:
                return ready
            entry.last_post, entry.held_until = now, None
            return None

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
