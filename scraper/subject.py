"""A board's thread list (subject.txt): which threads it lists, read only when it is one.

2ch: `KEY.dat<>TITLE (COUNT)`; したらば: `KEY.cgi,TITLE(COUNT)` with the first line repeated at the end.
A thread the list no longer holds has fallen from the board (dat落ち) or was removed — but only a
list that is the board's says so: every line in the dialect's form, whole (ending in a newline,
したらば's repeated first line at the end), in the board's charset. A maintenance page, an empty
answer, a list cut short or re-encoded on the way is no list at all (`None`).

`BoardLists` keeps the list each board had "as before" (`scraper.gone`) for every game on the board:
one reading an hour per board, one copy in memory — not one per game (5,000 games on one board would
otherwise ask it for its 5,000-line list 5,000 times an hour and hold 5,000 copies, 25 million keys).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import datetime
from typing import TYPE_CHECKING

import regex

from scraper import fetch, http
from scraper.gone import LIST_AGE, LIST_RETRY, Listing
from scraper.http import Reader, network_errors
from scraper.refs import Dialect, ThreadRef

if TYPE_CHECKING:
    import requests

_LINE = {
    Dialect.TWOCH: regex.compile(r"([0-9]{9,12})\.dat<>.* \([0-9]+\)"),
    Dialect.SHITARABA: regex.compile(r"([0-9]{9,12})\.cgi,.*\([0-9]+\)"),
}


def thread_list(data: bytes, ref: ThreadRef) -> list[str] | None:
    """The keys `data` lists, in its order, when it is a thread list of `ref`'s board; else None."""
    text = fetch.strict_text(data, ref.encoding)
    if text is None or not text.endswith("\n"):
        return None
    lines = text[:-1].split("\n")
    if ref.dialect is Dialect.SHITARABA:
        if len(lines) < 2 or lines[-1] != lines[0]:
            return None
        lines = lines[:-1]
    pattern = _LINE[ref.dialect]
    matches = [pattern.fullmatch(line) for line in lines]
    if not all(matches):
        return None
    return [match[1] for match in matches if match]


def read_list(session: Reader | requests.Session, ref: ThreadRef) -> list[str] | None:
    """The keys the board's subject.txt lists now; None when it could not be read as the list."""
    try:
        response = http.get(session, ref.subject_url, timeout=fetch.TIMEOUT)
    except network_errors():
        return None
    if response.status_code != 200:
        return None
    return thread_list(response.content, ref)


class BoardLists:
    """The latest thread list of each board read through `reader`, read at most once per LIST_AGE
    (and, after a list that could not be read, not again for LIST_RETRY), whichever game asks."""

    def __init__(self, reader: Reader | requests.Session) -> None:
        self.reader = reader
        self._lists: dict[str, Listing] = {}
        self._failed_at: dict[str, datetime] = {}
        self._locks: dict[str, threading.Lock] = defaultdict(threading.Lock)
        self._guard = threading.Lock()

    def current(self, ref: ThreadRef, now: datetime) -> Listing | None:
        """`ref`'s board's list as read within LIST_AGE of `now` (read now if need be); None when
        it could not be read. Games of one board asking at once wait for one reading."""
        board = ref.subject_url
        with self._guard:
            lock = self._locks[board]
        with lock:
            listing = self._lists.get(board)
            if listing is not None and now - listing.at < LIST_AGE:
                return listing
            failed = self._failed_at.get(board)
            if failed is not None and now - failed < LIST_RETRY:
                return None
            listed = read_list(self.reader, ref)
            if not listed:
                self._failed_at[board] = now
                return None
            self._lists[board] = listing = Listing(now, frozenset(listed))
            self._failed_at.pop(board, None)
            return listing
