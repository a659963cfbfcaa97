"""Decoding posted forms in the board's own encoding (CP932 for bbs.cgi, EUC-JP for write.cgi).

Clients percent-encode the bytes of the page's charset; Werkzeug's form parser (and the stdlib's
parse_qsl) would decode them as UTF-8, so the raw bytes are split here (multipart with Werkzeug's
sans-IO decoder) and decoded once with the right codec. Undecodable bytes become U+FFFD rather
than failing the post.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from functools import cache
from urllib.parse import unquote_to_bytes

from werkzeug.http import parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData
from werkzeug.wsgi import get_content_length, get_input_stream

MAX_BODY = 256 * 1024  # far above any legal post (2048 characters of body), far below harm
# Bytes looked for as numbers: `b"%" in part` first tries the operand as an int and raises and
# clears a TypeError inside (1.2 µs a test here), `37 in part` is a plain byte search (0.17 µs).
_PERCENT, _PLUS = ord("%"), ord("+")


class FormTooLarge(ValueError):
    pass


def read_form(environ: dict, encoding: str) -> dict[str, str]:
    """The fields of a WSGI request's form: the Content-Length's bytes, or without one what
    Werkzeug's guarded input stream gives (nothing, unless the server ends the stream)."""
    length = _content_length(environ)
    if length is not None and length > MAX_BODY:
        raise FormTooLarge(length)
    if length is not None:  # exactly what was announced, as PEP 3333 has an app read it
        raw = environ["wsgi.input"].read(length)
    else:
        raw = get_input_stream(environ).read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise FormTooLarge(len(raw))
    mimetype, params = parse_options_header(environ.get("CONTENT_TYPE", ""))
    if mimetype.lower() == "multipart/form-data":
        boundary = params.get("boundary", "")
        pairs = _multipart(raw, boundary.encode("latin-1")) if boundary else []
    else:
        pairs = _urlencoded(raw)
    decode = _decoder(encoding)
    form: dict[str, str] = {}
    for key, value in pairs:
        # ASCII is the same in both encodings: a field of ASCII (the board, the key, `sage`) is
        # decoded without the multibyte codec (which costs ten times as much).
        text = value.decode("ascii") if value.isascii() else decode(value, "replace")[0]
        form.setdefault(key.decode("latin-1"), text)
    return form


@cache  # one per encoding the board reads (CP932, EUC-JP)
def _decoder(encoding: str) -> Callable[[bytes, str], tuple[str, int]]:
    return codecs.getdecoder(encoding)


def _content_length(environ: dict) -> int | None:
    """Werkzeug's reading of Content-Length, with the usual one — ASCII digits, no
    Transfer-Encoding — read directly."""
    value = environ.get("CONTENT_LENGTH")
    if value is not None and value.isascii() and value.isdigit() and "HTTP_TRANSFER_ENCODING" not in environ:
        return int(value)
    return get_content_length(environ)


def _urlencoded(raw: bytes) -> list[tuple[bytes, bytes]]:
    """`a=%82%A0&b=c` into byte pairs (the stdlib's parse_qsl decodes values as UTF-8 on the way)."""
    pairs = []
    for item in raw.split(b"&"):
        if item:
            name, _, value = item.partition(b"=")
            pairs.append((_unquote(name), _unquote(value)))
    return pairs


def _unquote(part: bytes) -> bytes:
    """unquote_to_bytes, `+` as a space: what it gives, for any bytes."""
    if _PERCENT not in part and _PLUS not in part:  # field names, `sage`, the thread key: nothing to do
        return part
    part = part.replace(b"+", b" ")
    try:
        # Every %XX made a \xXX (a backslash of the form's own doubled first) and decoded by the
        # codec in C: a body of Japanese text is nearly all escapes, which unquote_to_bytes takes
        # one by one in Python (12× slower on a long post).
        return part.replace(b"\\", b"\\\\").replace(b"%", b"\\x").decode("unicode_escape").encode("latin-1")
    except UnicodeDecodeError:  # a `%` without two hex digits after it: kept as typed
        return unquote_to_bytes(part)


def _multipart(raw: bytes, boundary: bytes) -> list[tuple[bytes, bytes]]:
    decoder = MultipartDecoder(boundary, max_form_memory_size=MAX_BODY)
    decoder.receive_data(raw)
    decoder.receive_data(None)
    pairs: list[tuple[bytes, bytes]] = []
    name: bytes | None = None
    chunks: list[bytes] = []
    while True:
        event = decoder.next_event()
        if isinstance(event, File):
            name = None  # an uploaded file is never a form field of a post
        elif isinstance(event, Field):
            name, chunks = event.name.encode("latin-1"), []
        elif isinstance(event, Data):
            chunks.append(event.data)
            if not event.more_data and name is not None:
                pairs.append((name, b"".join(chunks)))
                name = None
        elif isinstance(event, (Epilogue, NeedData)):
            return pairs
