"""Whether a thread is gone from its board: proven, never concluded from one answer.

A read may only ever suggest it: the dat (or rawmode, or read.cgi page) answering 404 or 410, or the
board's own page for a thread that is not there (ex0ch's 「スレッドが存在しません」, 5ch's 過去ログ倉庫
page). A redirect is no such sign: portals and login walls answer with one. The sign counts only
with the board's thread list (`scraper.subject.thread_list`) not listing the thread while it lists
the board's other threads as before, and only when both are seen twice, `GONE_APART` apart: a board
in maintenance, a proxy that lost its way or a list cut short then cannot end a game. Anything less
is a fault, read again later.

"As before" is the list read while the thread could still be read (`known`, kept fresh hourly): at
least half of the other threads it listed are listed still, and nothing older than it that it did
not list — a thread's key is the time it was opened, so a board's list only ever gains new keys.
That list is the board's, not the thread's: the games on one board share one reading of it
(`scraper.subject.BoardLists`), and their witnesses hold the same `Listing`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import regex

GONE_APART = timedelta(minutes=10)
# A key is the board's clock when the thread was opened, in whole seconds; a board's clock may be behind
# ours. A thread opened up to this long before our list was read may be one the list could not show yet.
CLOCK_SKEW = timedelta(minutes=10)
LIST_AGE = timedelta(hours=1)  # how old the board's list "as before" may grow before it is read again
LIST_RETRY = timedelta(
    minutes=5
)  # after a list that could not be read: a board's broken list is not asked every poll
# The boards' own words for a thread that is not there (ex0ch read.cgi's error, 5ch's archive page).
_GONE_PAGE = regex.compile(r"スレッドが存在しません|過去ログ倉庫に格納されています|dat落ち")


def gone_page(text: str) -> str | None:
    """The board's words when `text` (an answer that is not the thread) says the thread is not
    there; None otherwise."""
    match = _GONE_PAGE.search(text)
    return match[0] if match else None


@dataclass(frozen=True)
class _Sighting:
    at: datetime
    sign: str


@dataclass(frozen=True)
class Listing:
    """A board's thread list as it was read at `at`."""

    at: datetime
    keys: frozenset[str]


class GoneWitness:
    """The signs seen so far that one thread is gone; `observe` says when they are proof."""

    def __init__(self, apart: timedelta = GONE_APART) -> None:
        self.apart = apart
        self._first: _Sighting | None = None
        self._before: Listing | None = None
        self._asked_at: datetime | None = None

    def reset(self) -> None:
        """The thread was read: whatever was seen before was a passing fault."""
        self._first = None

    def needs_list(self, now: datetime) -> bool:
        """Whether the board's list as it is while the thread can be read should be read (again)."""
        if self._asked_at is not None and now - self._asked_at < LIST_RETRY:
            return False
        return self._before is None or now - self._before.at >= LIST_AGE

    def known(self, listing: Listing | None, now: datetime) -> None:
        """The board's list, as read (now, or within LIST_AGE by another game of the board) while
        the thread could be read (None: it could not be read)."""
        self._asked_at = now
        if listing is not None and listing.keys:
            self._before = listing

    def observe(self, key: str, sign: str, listed: list[str] | None, now: datetime) -> tuple[bool, str]:
        """A read said `sign` (404, the board's page), and the board's list showed `listed` (None:
        not a list). Whether that proves the thread gone, and why or why not (for the log)."""
        if listed is None:
            return False, "subject.txt could not be read as the board's thread list"
        if key in listed:
            self._first = None
            return False, "subject.txt still lists it"
        if problem := self._not_as_before(key, listed):
            return False, problem
        first = self._first
        if first is None:
            self._first = _Sighting(now, sign)
            return False, f"subject.txt no longer lists it; looking again after {self.apart}"
        if now - first.at < self.apart:
            return False, f"seen first at {first.at:%H:%M:%S}; looking again after {self.apart}"
        return True, (
            f"{first.sign} at {first.at:%H:%M:%S} and {sign} at {now:%H:%M:%S}, and subject.txt no "
            "longer lists it"
        )

    def _not_as_before(self, key: str, listed: list[str]) -> str | None:
        before = self._before
        if not listed:
            return "subject.txt lists no thread at all (what a broken proxy answers too)"
        if before is None:
            return "no list of the board from while the thread could be read to compare with"
        opened_before = (before.at - CLOCK_SKEW).timestamp()
        strangers = [k for k in listed if k not in before.keys and k.isdigit() and int(k) < opened_before]
        if strangers:
            return f"subject.txt lists older threads the board did not list before ({strangers[0]}…)"
        others = before.keys - {key}
        if 2 * len(others & set(listed)) < len(others):
            return "subject.txt does not list the board's other threads as before"
        return None
