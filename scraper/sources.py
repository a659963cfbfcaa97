"""A thread named the way a user names it on the command line: its URL (read from the board) or a
saved dat, rawmode or read.cgi file — for `threadgm verify`."""

from __future__ import annotations

from pathlib import Path

from scraper.fetch import FetchError, FetchState, fetch, make_session
from scraper.files import load_saved_thread
from scraper.post import Post
from scraper.refs import ThreadRef


def load_thread(source: str, thread_key: str | None = None) -> tuple[list[Post], str]:
    """The posts and the key of a thread; ValueError (Japanese) when it cannot be read."""
    if not source.startswith(("http://", "https://")):
        return load_saved_thread(Path(source), thread_key)
    ref = ThreadRef.from_url(source)  # NotAThreadURL is a ValueError
    try:
        result = fetch(make_session(), ref, FetchState())
    except FetchError as raw_error:
        # a board without raw access (5ch closes its dat to browsers): its read.cgi page, as a
        # game with read = "html" is read — a player verifying has no configuration to say so
        try:
            result = fetch(make_session(), ref, FetchState(), html=True)
        except FetchError as error:
            raise ValueError(f"{raw_error}（read.cgi でも読めません: {error}）") from error
    if result.outcome == "gone":
        raise ValueError(f"スレッドが見つかりません ({result.note})")
    return result.posts, thread_key or ref.key
