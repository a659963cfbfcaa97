"""Whether a thread is gone from its board: proven, never concluded from one answer.

A read may only ever suggest it: the dat (or rawmode, or read.cgi page) answering 404 or 410, or the
board's own page for a thread that is not there (ex0ch's 「スレッドが存在しません」, 5ch's 過去ログ倉庫
page). A redirect is no such sign: portals and login walls answer with one. The sign counts only
with the board's thread list (`scraper.subject.thread_list`) not listing the thread while it lists
the board's other threads as before, and only when both are seen twice, `GONE_APART` apart: a board
in maintenance, a proxy that lost its way or a list cut short then cannot end a game. Anything less
is a fault, read again later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import regex

GONE_APART = timedelta(minutes=10)
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
    listed: frozenset[str]  # the board's other threads, as its list showed them then
    sign: str


class GoneWitness:
    """The signs seen so far that one thread is gone; `observe` says when they are proof."""

    def __init__(self, apart: timedelta = GONE_APART) -> None:
        self.apart = apart
        self._first: _Sighting | None = None

    def reset(self) -> None:
        """The thread was read: whatever was seen before was a passing fault."""
        self._first = None

    def observe(self, key: str, sign: str, listed: list[str] | None, now: datetime) -> tuple[bool, str]:
        """A read said `sign` (404, the board's page), and the board's list showed `listed` (None:
        not a list). Whether that proves the thread gone, and why or why not (for the log)."""
        if listed is None:
            return False, "subject.txt could not be read as the board's thread list"
        if key in listed:
            self._first = None
            return False, "subject.txt still lists it"
        if not listed:
            return False, "subject.txt lists no thread at all (what a broken proxy answers too)"
        first = self._first
        if first is None:
            self._first = _Sighting(now, frozenset(listed), sign)
            return False, f"subject.txt no longer lists it; looking again after {self.apart}"
        if now - first.at < self.apart:
            return False, f"seen first at {first.at:%H:%M:%S}; looking again after {self.apart}"
        kept = first.listed & set(listed)
        if 2 * len(kept) < len(first.listed):
            self._first = _Sighting(now, frozenset(listed), sign)
            return False, "subject.txt does not list the board's other threads as before"
        return True, (
            f"{first.sign} at {first.at:%H:%M:%S} and {sign} at {now:%H:%M:%S}, and subject.txt no "
            "longer lists it"
        )
