"""Deterministic, verifiable randomness: the only source of dice in threadgm.

Every die the bot rolls comes from a *stream* named by a purpose string and keyed by a period key:

    block_i  = HMAC-SHA256(period_key, f"{purpose}|{i}")          i = 0, 1, 2, ...
    words    = block_0[0:8], block_0[8:16], ..., block_1[0:8], ... (unsigned 64-bit, big-endian)

A roll of an s-sided die takes the next word w; if w < 2**64 - (2**64 % s) the face is w % s + 1,
otherwise the word is thrown away and the next one taken (rejection sampling: never a modulo bias).
The bot publishes SHA-256(period_key) when the period opens and the key itself when it closes, so
anyone can recompute every face afterwards; a restart derives the same faces, so a crash can never
be used to reroll.

Tests and offline tools inject recorded faces (BCDice's `rands`) through the same `Dice` protocol.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any, Protocol

from parser.numbers import read_number

_WORD = 1 << 64


class Dice(Protocol):
    """Anything that can roll one die with the given number of sides (faces 1..sides)."""

    def roll(self, sides: int) -> int: ...


class RandomSource(Protocol):
    """A family of independent dice streams, one per purpose string."""

    def stream(self, purpose: str) -> Dice: ...


class DiceError(RuntimeError):
    """Recorded dice did not match what the rules asked for (tests, replays, GM previews)."""


def face_from_word(word: int, sides: int) -> int | None:
    """Map a 64-bit word to a face of an s-sided die, or None when rejection sampling discards it."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, not {sides}")
    limit = _WORD - (_WORD % sides)
    return word % sides + 1 if word < limit else None


_FOUR_WORDS = struct.Struct(">4Q").unpack


@functools.lru_cache(maxsize=256)
def _pads(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hashes with the key absorbed (RFC 2104), to copy per block: a
    block then costs two hash copies and no key setup (OpenSSL's one-shot HMAC sets the key up anew
    each time, half of its cost on a block)."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return hashlib.sha256(bytes(b ^ 0x36 for b in key)), hashlib.sha256(bytes(b ^ 0x5C for b in key))


def _block(key: bytes, purpose: str, block: int) -> tuple[int, int, int, int]:
    """The four words of one block: HMAC-SHA256(key, f"{purpose}|{block}") (tests/engine/test_rng.py
    holds it to `hmac.digest`)."""
    inner, outer = _pads(key)
    inner, outer = inner.copy(), outer.copy()
    inner.update(f"{purpose}|{block}".encode())
    outer.update(inner.digest())
    return _FOUR_WORDS(outer.digest())


def stream_words(key: bytes, purpose: str) -> Iterator[int]:
    """The endless sequence of 64-bit words of one purpose's stream."""
    block = 0
    while True:
        yield from _block(key, purpose, block)
        block += 1


class SeededDice:
    """One purpose's stream under a period key; remembers what it rolled for reports and audits.

    Words come four at a time (one HMAC block) and are kept until used; `roll_many` draws a whole
    xDy's faces from them at once: a die costs no generator step, no call and no object of its own.
    The faces are `face_from_word`'s, word for word (tests/engine/test_rng.py holds both)."""

    __slots__ = ("_blocks", "_key", "_record", "_unread", "purpose")

    def __init__(self, key: bytes, purpose: str) -> None:
        self.purpose = purpose
        self._key = key
        self._blocks = 0  # blocks drawn so far: the number of the next one
        self._unread: tuple[int, ...] = ()  # the words drawn and not used yet, in stream order
        self._record: list[tuple[int, tuple[int, ...]]] = []  # (sides, faces) per call, not per die

    @property
    def rolled(self) -> list[tuple[int, int]]:
        """(sides, face) of every die rolled, in order."""
        return [(sides, face) for sides, faces in self._record for face in faces]

    def roll(self, sides: int) -> int:
        return self.roll_many(sides, 1)[0]

    def roll_many(self, sides: int, count: int) -> list[int]:
        """`count` dice of `sides`, in stream order (the same faces as `count` calls of `roll`)."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if count < 1:
            return []
        limit = _WORD - _WORD % sides
        words = self._unread
        if len(words) < count:
            words += self._draw(-((len(words) - count) // 4))  # whole blocks: ceil(missing / 4)
        chunk = words[:count]
        if max(chunk) < limit:  # the usual case: no word rejected
            faces = [chunk[0] % sides + 1] if count == 1 else [word % sides + 1 for word in chunk]
            self._unread = words[count:]
        else:
            faces = self._rejecting(words, sides, limit, count)
        self._record.append((sides, tuple(faces)))
        return faces

    def _rejecting(self, words: tuple[int, ...], sides: int, limit: int, count: int) -> list[int]:
        """Word by word, throwing away those at or above `limit`, until `count` faces are drawn."""
        faces: list[int] = []
        index = 0
        while len(faces) < count:
            if index == len(words):
                words, index = self._draw(1), 0
            word = words[index]
            index += 1
            if word < limit:
                faces.append(word % sides + 1)
        self._unread = words[index:]
        return faces

    def _draw(self, blocks: int) -> tuple[int, ...]:
        """The words of the stream's next `blocks` blocks."""
        first = self._blocks
        self._blocks += blocks
        if blocks == 1:
            return _block(self._key, self.purpose, first)
        if blocks == 2:  # a handful of dice over a block's edge: the common batch, kept cheap
            return _block(self._key, self.purpose, first) + _block(self._key, self.purpose, first + 1)
        return tuple(
            chain.from_iterable(_block(self._key, self.purpose, n) for n in range(first, first + blocks))
        )


def roll_many(dice: Dice, sides: int, count: int) -> list[int]:
    """`count` dice of `sides` from any `Dice`, batched where the dice can (`SeededDice.roll_many`)."""
    batch = getattr(dice, "roll_many", None)
    if batch is not None:
        return batch(sides, count)  # type: ignore[no-any-return]
    roll = dice.roll
    return [roll(sides) for _ in range(count)]


class SeededSource:
    """All streams of one period: `stream(purpose)` always restarts the purpose from its first word."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def stream(self, purpose: str) -> SeededDice:
        return SeededDice(self.key, purpose)


class RecordedDice:
    """Faces given in advance as (sides, value) pairs, consumed in order, as in BCDice's test data.

    Asking for a die with other sides than recorded, or for more dice than recorded, raises
    DiceError: a test must fail rather than silently roll something else.
    """

    def __init__(self, rands: Iterable[tuple[int, int]]) -> None:
        self._rands = list(rands)
        self._next = 0
        self.rolled: list[tuple[int, int]] = []

    @property
    def remaining(self) -> int:
        return len(self._rands) - self._next

    def roll(self, sides: int) -> int:
        if self._next >= len(self._rands):
            raise DiceError(f"no recorded die left for a d{sides} (recorded: {len(self._rands)})")
        want_sides, value = self._rands[self._next]
        if want_sides != sides:
            raise DiceError(
                f"recorded die #{self._next + 1} has {want_sides} sides but the rules rolled a d{sides}"
            )
        if not 1 <= value <= sides:
            raise DiceError(f"recorded die #{self._next + 1} shows {value}, outside 1..{sides}")
        self._next += 1
        self.rolled.append((sides, value))
        return value


class RecordedSource:
    """Recorded faces per purpose (a GM preview with published random numbers, replays in tests).

    A purpose with no recording falls back to `default` (if given), else raises DiceError.
    """

    def __init__(
        self,
        by_purpose: dict[str, Iterable[tuple[int, int]]] | None = None,
        default: RecordedDice | None = None,
    ) -> None:
        self._dice = {purpose: RecordedDice(rands) for purpose, rands in (by_purpose or {}).items()}
        self._default = default

    def stream(self, purpose: str) -> Dice:
        if purpose in self._dice:
            return self._dice[purpose]
        if self._default is not None:
            return self._default
        raise DiceError(f"no recorded dice for purpose {purpose!r}")


class SplitSource:
    """The streams of a ruleset: purposes starting with `secret/` (dice only the bot may know for now,
    such as a hidden mastermind) come from a key of their own, which is published only when the
    secret is out; everything else from the public key."""

    SECRET = "secret/"

    def __init__(self, public: RandomSource, secret: RandomSource) -> None:
        self.public = public
        self.secret = secret

    def stream(self, purpose: str) -> Dice:
        return (self.secret if purpose.startswith(self.SECRET) else self.public).stream(purpose)


def parse_rands(text: str) -> list[tuple[int, int]]:
    """Parse the CLI form `6:3,6:4,100:57` into (sides, value) pairs."""
    pairs: list[tuple[int, int]] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        sides, sep, value = item.partition(":")
        faces, face = (read_number(sides), read_number(value)) if sep else (None, None)
        if not isinstance(faces, int) or not isinstance(face, int):
            raise ValueError(f"recorded die {item!r} is not SIDES:VALUE")
        pairs.append((faces, face))
    return pairs
