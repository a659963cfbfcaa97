"""The bytes of a 2ch board's files: CP932 that never loses a character, and lines cut at `\n` only."""

from __future__ import annotations

ENCODING = "cp932"


def encode(text: str) -> bytes:
    """CP932 bytes; a character CP932 lacks is kept as a numeric reference, never dropped."""
    return text.encode(ENCODING, errors="xmlcharrefreplace")


def decode(data: bytes) -> str:
    return data.decode(ENCODING, errors="replace")


def dat_lines(text: str) -> list[str]:
    """The lines of a dat or of subject.txt: `\n` ends a line and nothing else does (str.splitlines
    would also break on `\x0b`, `\x1c`, `\x85`, U+2028… and shift every later post's number)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines
