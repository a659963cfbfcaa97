"""A board's thread list (subject.txt): which threads it lists, read only when it is one.

2ch: `KEY.dat<>TITLE (COUNT)`; したらば: `KEY.cgi,TITLE(COUNT)` with the first line repeated at the end.
A thread the list no longer holds has fallen from the board (dat落ち) or was removed — but only a
list that is the board's says so: every line in the dialect's form, whole (ending in a newline,
したらば's repeated first line at the end), in the board's charset. A maintenance page, an empty
answer, a list cut short or re-encoded on the way is no list at all (`None`).
"""

from __future__ import annotations

import regex
import requests

from scraper import fetch
from scraper.refs import Dialect, ThreadRef

_LINE = {
    Dialect.TWOCH: regex.compile(r"(\d{9,12})\.dat<>.* \(\d+\)"),
    Dialect.SHITARABA: regex.compile(r"(\d{9,12})\.cgi,.*\(\d+\)"),
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


def read_list(session: requests.Session, ref: ThreadRef) -> list[str] | None:
    """The keys the board's subject.txt lists now; None when it could not be read as the list."""
    try:
        response = session.get(ref.subject_url, timeout=fetch.TIMEOUT, allow_redirects=False)
    except requests.RequestException:
        return None
    if response.status_code != 200:
        return None
    return thread_list(response.content, ref)
