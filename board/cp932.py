"""The bytes of a 2ch board's files: CP932 that never loses a character, and lines cut at `\n` only."""

from __future__ import annotations

import codecs

ENCODING = "cp932"
# The codec's own functions, looked up once: `str.encode("cp932")` finds the codec by name on every
# call, three times the cost of the conversion of a dat line.
_ENCODE = codecs.getencoder(ENCODING)
_DECODE = codecs.getdecoder(ENCODING)


def encode(text: str) -> bytes:
    """CP932 bytes; a character CP932 lacks is kept as a numeric reference, never dropped."""
    return _ENCODE(text, "xmlcharrefreplace")[0]


def decode(data: bytes) -> str:
    return _DECODE(data, "replace")[0]


def dat_lines(text: str) -> list[str]:
    """The lines of a dat or of subject.txt: `\n` ends a line and nothing else does (str.splitlines
    would also break on `\x0b`, `\x1c`, `\x85`, U+2028… and shift every later post's number)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines
