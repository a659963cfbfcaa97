"""A board's thread list (subject.txt): which threads it still lists.

2ch: `KEY.dat<>TITLE (COUNT)`; したらば: `KEY.cgi,TITLE(COUNT)` with the first line repeated at the end.
A thread the list no longer holds has fallen from the board (dat落ち) or was removed; one it still
lists is alive, whatever a single read of its dat just answered.
"""

from __future__ import annotations

import regex
import requests

from scraper import fetch
from scraper.refs import ThreadRef

_KEY = regex.compile(r"^(\d+)\.(?:dat<>|cgi,)", regex.MULTILINE)


def listed_keys(text: str) -> set[str]:
    return set(_KEY.findall(text))


def still_listed(session: requests.Session, ref: ThreadRef) -> bool | None:
    """Whether the board's subject.txt lists the thread; None when the list could not be read."""
    try:
        response = session.get(ref.subject_url, timeout=fetch.TIMEOUT, allow_redirects=False)
    except requests.RequestException:
        return None
    if response.status_code != 200:
        return None
    return ref.key in listed_keys(response.content.decode(ref.encoding, errors="replace"))
