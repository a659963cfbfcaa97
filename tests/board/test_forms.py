"""Form decoding: the fast percent-decoding gives exactly what urllib's unquote_to_bytes gives."""

from __future__ import annotations

import io
from urllib.parse import quote_from_bytes, unquote_to_bytes

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.wsgi import get_content_length

from board.forms import _content_length, _unquote, _urlencoded, read_form

# What a form part may hold: escapes (good and broken), backslashes, `+`, raw bytes of any value.
_PIECES = st.sampled_from(
    [b"%", b"%4", b"%41", b"%e3", b"%ZZ", b"\\", b"\\x41", b"+", b"x", b"\x82\xa0", b"\n"]
)
_PARTS = st.lists(st.one_of(_PIECES, st.binary(max_size=4)), max_size=12).map(b"".join)


# The machine may be busy: data generation's speed is no part of what is checked.
_RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_RELAXED
@given(_PARTS)
def test_any_part_decodes_as_unquote_to_bytes_decodes_it(part: bytes) -> None:
    assert _unquote(part) == unquote_to_bytes(part.replace(b"+", b" "))


@_RELAXED
@given(st.binary(max_size=64))
def test_what_a_browser_encodes_comes_back_byte_for_byte(value: bytes) -> None:
    assert _urlencoded(b"MESSAGE=" + quote_from_bytes(value).encode("ascii")) == [(b"MESSAGE", value)]


def test_a_long_japanese_body_and_odd_escapes() -> None:
    body = "ベンチ書き込み＃".encode("cp932") * 300
    assert _unquote(quote_from_bytes(body).encode("ascii")) == body
    assert _unquote(b"a+b%2Bc%5C%ZZ%") == b"a b+c\\%ZZ%"


@_RELAXED
@given(
    st.dictionaries(st.sampled_from(["bbs", "key", "FROM", "mail", "MESSAGE"]), st.binary(max_size=24)),
    st.sampled_from(["cp932", "euc_jp"]),
)
def test_every_field_is_decoded_as_the_board_encoding_decodes_it(
    fields: dict[str, bytes], encoding: str
) -> None:
    # ASCII fields take a shorter way: they must come out as the codec would give them.
    body = "&".join(f"{name}={quote_from_bytes(value)}" for name, value in fields.items()).encode("ascii")
    environ = {
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "wsgi.input": io.BytesIO(body),
    }
    expected = {name: value.decode(encoding, errors="replace") for name, value in fields.items()}
    assert read_form(environ, encoding) == expected


@_RELAXED
@given(
    st.one_of(st.none(), st.text(max_size=6), st.from_regex(r"\A[ \t]*-?[0-9]{1,6}[ \t]*\Z")),
    st.one_of(st.none(), st.sampled_from(["chunked", "gzip, chunked", "identity"])),
)
def test_the_content_length_is_read_as_werkzeug_reads_it(length: str | None, encoding: str | None) -> None:
    environ = {
        key: value
        for key, value in (("CONTENT_LENGTH", length), ("HTTP_TRANSFER_ENCODING", encoding))
        if value is not None
    }
    assert _content_length(environ) == get_content_length(environ)
