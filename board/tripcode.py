"""2ch/5ch tripcodes: the name field's `#key` and the trip the board shows for it.

The rules (bbs-protocol.md §5; zerochplus/triptest's "2ch.net" mode; ex0ch's `ConvertTrip`), all
on the CP932 bytes `k` of the key:

- `len(k) < 12`: 10 characters of DES crypt(3). Salt = `(k[1:] + b"H.")[:2]`, bytes outside
  0x2E..0x7A made `.`, then `:;<=>?@[\\]^_`` mapped to `ABCDEFGabcdef`; the key is then cut at its
  first 0x80 byte (2ch's "0x80 problem", kept for compatibility) and crypt(3) reads at most 8 bytes
  and stops at a NUL.
- `len(k) >= 12` and starting with `#` (the user typed `##`): a raw key, `#` + 16 hex digits + up
  to 2 salt characters, gives the 10-character crypt trip of those 8 bytes (cut at 0x80 too; like
  ex0ch's Perl `pack("H*")`, the 16 may be any of [0-9A-Za-z]); anything else is `???`.
- `len(k) >= 12` and starting with `$`: reserved on 5ch, `???`.
- other `len(k) >= 12`: 12 characters of base64(SHA-1(k)), `+` made `.`.

Name field: every full-width `＃` becomes `#` first (5ch; ex0ch converts only the first one), and
the key is everything after the first `#` not preceded by `&`, so numeric references such as
`&#9829;` in a name are not keys. `name#` (empty key) gets the trip of the empty key, as on ex0ch.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from functools import cache

from board.descrypt import crypt

__all__ = [
    "UNDEFINED_TRIP",
    "NoTripKeyError",
    "dat_name",
    "display_trip",
    "key_bytes",
    "name_and_trip",
    "split_name",
    "trip_for_key",
]

UNDEFINED_TRIP = "???"

_KEY_MARK = re.compile(r"(?<!&)#")
_RAW_KEY = re.compile(rb"#([0-9A-Za-z]{16})([./0-9A-Za-z]{0,2})")
_SALT_SYMBOLS = bytes.maketrans(b":;<=>?@[\\]^_`", b"ABCDEFGabcdef")


class NoTripKeyError(ValueError):
    """The name field has no `#key`."""

    def __init__(self, name_field: str) -> None:
        super().__init__(f"名前欄に #キー がありません / the name field has no #key: {name_field!r}")
        self.name_field = name_field


def _crypt_trip(key: bytes, salt: bytes) -> str:
    key = key.split(b"\x80", 1)[0]  # the 0x80 problem: the key ends at its first 0x80 byte
    return crypt(key, salt)[-10:].decode("ascii")


def _clean_salt(salt: bytes) -> bytes:
    return bytes(c if 0x2E <= c <= 0x7A else 0x2E for c in salt).translate(_SALT_SYMBOLS)


def _perl_unhex(digits: bytes) -> bytes:
    """Perl's `pack('H*', ...)`, which the raw-key rule uses on [0-9A-Za-z]: a letter counts
    `(c & 15) + 9` mod 16, so g..z and G..Z are accepted and mean something."""
    nibbles = [((c & 15) + 9) & 15 if chr(c).isalpha() else c & 15 for c in digits]
    return bytes((hi << 4) | lo for hi, lo in zip(nibbles[0::2], nibbles[1::2], strict=True))


def trip_for_key(key: bytes) -> str:
    """The trip of a key given as its CP932 bytes: 10 or 12 characters, or `???`."""
    if len(key) < 12:
        return _crypt_trip(key, _clean_salt((key[1:] + b"H.")[:2]))
    if key.startswith(b"#"):
        raw = _RAW_KEY.fullmatch(key)
        if raw is None:
            return UNDEFINED_TRIP
        return _crypt_trip(_perl_unhex(raw[1]), (raw[2] + b"..")[:2])
    if key.startswith(b"$"):
        return UNDEFINED_TRIP
    return base64.b64encode(hashlib.sha1(key).digest())[:12].replace(b"+", b".").decode("ascii")


def split_name(name: str) -> tuple[str, str | None]:
    """The name field as (the part shown, the key text), the key being None when there is none.

    Full-width `＃` counts as `#`, and a `#` right after `&` (a numeric reference) does not count;
    the part shown keeps everything before the key's `#` as typed (apart from `＃` → `#`).
    """
    name = name.replace("＃", "#")
    mark = _KEY_MARK.search(name)
    if mark is None:
        return name, None
    return name[: mark.start()], name[mark.end() :]


_NEVER_SENT = range(8272, 8836)  # pointers of NEC-selected IBM extensions (0xED, 0xEE): decoded, never sent


def _order(code: bytes) -> int:
    """Where a CP932 code comes in the WHATWG Shift_JIS index: single bytes first, then pointers."""
    if len(code) == 1:
        return code[0]
    lead, trail = code
    return 256 + (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 if trail < 0x7F else 0x41)


def _sent(ch: str) -> bytes | None:
    """What Python's `cp932` codec gives for `ch`, if a browser sends that code for it too: not one
    of NEC's copies at 0xED/0xEE, and not a best fit (the codec also writes ¢ £ ¬ ‖ 〜 as the codes
    of ￠ ￡ ￢ ∥ ～, which decode to those)."""
    try:
        code = ch.encode("cp932")
    except UnicodeEncodeError:
        return None
    return code if code[0] not in (0xED, 0xEE) and code.decode("cp932") == ch else None


def _codes() -> Iterator[bytes]:
    """The codes a browser may send, in the WHATWG Shift_JIS index's order."""
    for byte in range(0x100):
        yield bytes([byte])
    for pointer in range(11280):
        if pointer not in _NEVER_SENT:
            lead, trail = divmod(pointer, 188)
            yield bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])


@cache
def _first_codes() -> dict[str, bytes]:
    """Character → the bytes a browser sends for it in a Shift_JIS (CP932) form, for the characters
    where that is not what Python's `cp932` codec gives (a few hundred; every other character is the
    codec's own code, or not in CP932 at all).

    Where CP932 has a character twice, the first code in the WHATWG/Microsoft order wins (row 2
    before NEC row 13 before the IBM extensions; NEC's copies of the IBM extensions at 0xED/0xEE
    never): Python's `cp932` codec picks the NEC copies for 373 characters (ⅰ, ＇, ＂, 纊 ...),
    which would change the trip of a key that holds one. Only these are kept: a table of all of
    CP932's 7,900 characters took 1.2 MiB of every process that computes a trip.
    """
    first: dict[str, bytes] = {}
    for code in _codes():  # in the index's order: the first code of a character is met first
        try:
            ch = code.decode("cp932")
        except UnicodeDecodeError:
            continue
        if ch not in first and (own := _sent(ch)) != code and (own is None or _order(own) > _order(code)):
            first[ch] = code
    # what the WHATWG Shift_JIS encoder adds to the table
    first["\u00a5"] = b"\\"
    first["\u203e"] = b"~"
    first["\u2212"] = first.get("\uff0d") or "\uff0d".encode("cp932")
    return first


def _browser_bytes(ch: str, first: dict[str, bytes]) -> bytes:
    return first.get(ch) or _sent(ch) or f"&#{ord(ch)};".encode("ascii")


def key_bytes(key: str) -> bytes:
    """The CP932 bytes of a key, as a board decoding a Shift_JIS form would have received them.

    `＃` counts as `#` (see split_name). A character CP932 cannot hold becomes the decimal numeric
    reference `&#N;` a browser submits in its place (an emoji, 〜 U+301C, ¢ ...), so any key gives a
    deterministic trip and a post never fails on its name.
    """
    first = _first_codes()
    return b"".join(_browser_bytes(ch, first) for ch in key.replace("＃", "#"))


def name_and_trip(name_field: str) -> tuple[str, str | None]:
    """The part of the name field shown and its trip (None when the field has no `#key`)."""
    display, key = split_name(name_field)
    if key is None:
        return display, None
    return display, trip_for_key(key_bytes(key))


def display_trip(name_field: str) -> str:
    """`◆TRIP` for a name field such as `#tea` or `GM#tea`; NoTripKeyError when it has no key."""
    _display, trip = name_and_trip(name_field)
    if trip is None:
        raise NoTripKeyError(name_field)
    return f"◆{trip}"


def dat_name(display: str, trip: str) -> str:
    """The dat name field of a tripped post, exactly as 2ch and ex0ch write it: `NAME </b>◆TRIP <b>`.

    `display` must already be the board's normalised name (◆→◇, ★→☆ and the like are the
    poster's business); an empty one gives ` </b>◆TRIP <b>` as on ex0ch.
    """
    return f"{display} </b>◆{trip} <b>"
