"""The idle poll answered before Werkzeug: a GET (or HEAD) of a dat, subject.txt or SETTING.TXT whose
If-Modified-Since is at or after the file's modification time gets its 304 from one stat.

A reader polls every thread it follows, and nearly every poll is this one (board.app's `_static`
decides it the same way, after building Werkzeug's request, routing the URL and building a response —
six times the work of the answer). Anything else, or anything unusual about this one (an
If-None-Match, a date Werkzeug cannot read, a path the router would redirect or refuse, a file that
is not a regular file), goes the full way, so the answer is always the one the full way gives: the
same status line and headers, byte for byte.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from werkzeug.http import parse_date

# Werkzeug's status line (the full way sends it so) and the one header it keeps in a 304.
STATUS = "304 NOT MODIFIED"
HEADERS = (("Accept-Ranges", "bytes"),)
# The three static URLs of app._URLS, spelled exactly (the router's converters: board, thread key).
_STATIC = re.compile(r"/([A-Za-z0-9_]{1,32})/(?:dat/([0-9]{9,12})\.dat|(subject\.txt|SETTING\.TXT))\Z")


@lru_cache(maxsize=1024)
def _since(value: str) -> float | None:
    """If-Modified-Since as a Unix time, read as Werkzeug reads it (None: unreadable, so ignored).
    Pollers send back the Last-Modified they were given: a few values, each seen again and again."""
    moment = parse_date(value)
    return None if moment is None else moment.timestamp()


class NotModified:
    """Tells the requests answered 304 from the board directories `roots` (name → directory)."""

    def __init__(self, roots: Mapping[str, Path]) -> None:
        self._roots = {name: str(root) for name, root in roots.items()}

    def applies(self, environ: Mapping[str, object]) -> bool:
        since = environ.get("HTTP_IF_MODIFIED_SINCE")
        if not isinstance(since, str) or "HTTP_IF_NONE_MATCH" in environ:
            return False
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return False
        match = _STATIC.match(str(environ.get("PATH_INFO", "")))
        root = self._roots.get(match[1]) if match else None
        if root is None:
            return False
        path = f"{root}/dat/{match[2]}.dat" if match[2] else f"{root}/{match[3]}"
        seconds = _since(since)
        try:
            status = os.stat(path)
        except OSError:
            return False
        # Last-Modified is sent in whole seconds, and compared so (app._static).
        return seconds is not None and stat.S_ISREG(status.st_mode) and int(status.st_mtime) <= seconds
