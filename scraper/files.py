"""Threads saved to files (a downloaded KEY.dat, a rawmode.cgi answer, a read.cgi page), read back
into `Post`s — for `threadgm verify` and for anyone checking a thread the board no longer serves."""

from __future__ import annotations

import re
from pathlib import Path

from scraper.dat import parse_dat
from scraper.html import parse_read_cgi
from scraper.post import Post
from scraper.rawmode import parse_rawmode

_KEY = re.compile(r"[0-9]{9,12}")  # ASCII: `\d` takes １２３ too
_RAWMODE_LINE = re.compile(rb"^\d+<>")
_HTML = re.compile(r"<html|<div|<dl", re.IGNORECASE)


def thread_key_in(name: str) -> str | None:
    """The thread key a file name carries (`1795954933.dat`, `rawmode-1795954933.txt`), if any."""
    match = _KEY.search(name)
    return match[0] if match else None


def read_saved_thread(path: Path) -> list[Post]:
    """The posts of a saved thread, whichever of the three forms the file holds."""
    data = path.read_bytes()
    if _RAWMODE_LINE.match(data):
        return parse_rawmode(data.decode("euc_jp", errors="replace"))
    text = data.decode("cp932", errors="replace")
    if _HTML.search(text[:5000]):
        return parse_read_cgi(text)
    return parse_dat(text)


def load_saved_thread(path: Path, thread_key: str | None = None) -> tuple[list[Post], str]:
    """A saved thread and its key (from `thread_key`, else the file's name); ValueError (Japanese)
    when the file is missing or its key cannot be told."""
    if not path.is_file():
        raise ValueError(f"{path} はURLでもファイルでもありません")
    key = thread_key or thread_key_in(path.name)
    if key is None:
        raise ValueError("ファイル名からスレッドキーが分かりません。--key で指定してください")
    return read_saved_thread(path), key
