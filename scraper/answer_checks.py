"""What an answer of a board must show to be believed, read from its bytes and headers alone: text
strictly in the thread's charset, a range that is the one it names, whole lines, a Last-Modified fit
to validate the next read, a redirect to the thread's own archived copy. `scraper.fetch` decides what
to do with an answer; these say what the answer is.
"""

from __future__ import annotations

import codecs
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import regex

from scraper.refs import Dialect, ThreadRef

if TYPE_CHECKING:
    import requests


def strict_text(data: bytes, encoding: str, *, cut: bool = False) -> str | None:
    """`data` decoded in the thread's charset, or None when it is not text of that charset: a byte
    that does not decode, or Japanese that reads as UTF-8 (a proxy re-encoded the answer — text in
    Shift-JIS or EUC-JP almost never does). `cut`: the data may end inside a character (a page cut
    short), which is left out."""
    try:
        text = codecs.getincrementaldecoder(encoding)("strict").decode(data, final=not cut)
    except UnicodeDecodeError:
        return None
    if not text.isascii() and not encoding.lower().replace("-", "").startswith("utf"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return text
        return None
    return text


def trusted_validator(response: requests.Response) -> str | None:
    modified, date = response.headers.get("Last-Modified"), response.headers.get("Date")
    if not modified or not date:
        return None
    try:
        return (
            modified
            if (parsedate_to_datetime(date) - parsedate_to_datetime(modified)).total_seconds() >= 1
            else None
        )
    except (TypeError, ValueError):
        return None


def complete_lines(data: bytes) -> tuple[bytes, bool]:
    """The whole lines of `data`, and whether that is all of it (no partial line held back)."""
    end = data.rfind(b"\n")
    whole = data[: end + 1] if end >= 0 else b""
    return whole, len(whole) == len(data)


def range_problem(content_range: str, start: int, length: int) -> str | None:
    """Why a 206 is not the range asked for, whole (`bytes START-END/TOTAL`); None when it is."""
    match = regex.fullmatch(r"\s*bytes\s+(\d+)-(\d+)/(\d+|\*)\s*", content_range)
    if match is None:
        return f"Content-Range {content_range[:60]!r}"
    first, last = int(match[1]), int(match[2])
    if match[3] != "*" and last >= int(match[3]):
        return f"a range ending at byte {last} of a file of {match[3]}"
    if first != start:
        return f"it starts at byte {first}, not {start}"
    if last - first + 1 != length:
        return f"{length} bytes for a range of {last - first + 1}"
    return None


def last_line(whole: bytes) -> bytes:
    """The last line of `whole` (complete lines), its `\\n` included."""
    return whole[whole.rfind(b"\n", 0, len(whole) - 1) + 1 :]


def archived_at(ref: ThreadRef, url: str) -> bool:
    """Whether `url` is `ref`'s thread in its board's archive, on the board's own host."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != ref.origin:
        return False
    if ref.dialect is Dialect.SHITARABA:
        return (
            regex.match(rf"/bbs/read_archive\.cgi/{regex.escape(ref.board)}/{ref.key}(?:/|$)", parts.path)
            is not None
        )
    archive = rf"{regex.escape(ref.root)}/{regex.escape(ref.board)}/(?:oyster/{ref.key[:4]}|kako/{ref.key[:4]}/{ref.key[:5]}|kako/{ref.key[:3]})"
    return regex.fullmatch(rf"{archive}/{ref.key}\.dat(?:\.gz)?", parts.path) is not None


def older(modified: str | None, held: str) -> bool:
    try:
        return modified is not None and parsedate_to_datetime(modified) < parsedate_to_datetime(held)
    except (TypeError, ValueError):
        return False


def range_total(content_range: str) -> int | None:
    total = content_range.rpartition("/")[2].strip()
    return int(total) if total.isdigit() else None
