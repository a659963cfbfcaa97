"""Traditional Unix DES crypt(3) on bytes, for 2ch-style tripcodes.

`crypt(key, salt)` gives the 13-byte result of the classic 25-iteration, salt-perturbed DES
crypt: the two salt bytes followed by eleven characters of `./0-9A-Za-z`. It works on raw bytes
(tripcode keys are CP932, may hold any byte, and "raw" `##` keys may even hold NUL), which the
standard library's `crypt` module cannot do (it takes str, encodes UTF-8, rejects NUL, and is gone
from Python 3.13).

Semantics, byte for byte those of crypt(3):

- key: the bytes up to the first NUL, at most 8 of them; each contributes its low 7 bits
  (shifted left by one into a DES key byte), so bit 7 of every byte is ignored.
- salt: the first two bytes; more are ignored. Bytes of the crypt alphabet mean 0..63. Bytes
  outside it are read the way classic glibc / UFC-crypt's `ascii_to_bin` read them on x86 (signed
  `char`, low six bits kept): `{` acts as `.`, `|` as `/`, `-` as `z`, `:`..`@` as `A`..`G` and
  `[`..`` ` `` as `a`..`f` -- the very mapping 2ch's trip code applies to its salts by hand. (Today's
  libxcrypt refuses such salts and FreeBSD reads them as `.`; 2ch's salt clean-up never produces
  them, so trips do not depend on this choice.) The salt bytes are copied to the output as given.
- A salt shorter than two bytes, or with a NUL among its first two, is a `ValueError` (C
  implementations disagree on what such a salt means); str arguments are a `TypeError`. Extended
  (`_`) and modular (`$id$`) formats are not supported: this is strictly the traditional
  algorithm, so a leading `_` or `$` is just a salt byte.

Speed: each half of the state is kept "pre-expanded" (the 32-bit half with its end bits
duplicated, so that every S-box input is a fixed 6-bit window of it) and twice over in one int, a
copy feeding the even S-boxes and a copy feeding the odd ones; the salt is then one 16-bit delta
swap, and the eight S-boxes are merged with the P permutation into four 16384-entry tables
addressed by two S-box inputs at once. A round is a dozen integer operations and four lookups.
The tables are arrays of 64-bit words holding one x-form copy each (the second copy is the same
34 bits shifted up, added back once per round): 512 KiB where lists of the doubled 68-bit ints took
about 4 MiB of every process that computes a trip, the bot's included, and no slower.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache

__all__ = ["ALPHABET", "crypt"]

ALPHABET = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

# The DES tables of FIPS 46-3; bit positions are 1-based, bit 1 being the most significant.
_PC1 = (
    57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
    10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
    14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
)  # fmt: skip
_PC2 = (
    14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
    23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
    44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
)  # fmt: skip
_ROTATIONS = (1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1)
_P = (
    16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
    2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
)  # fmt: skip
_FP = (
    40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
    38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
    36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
    34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
)  # fmt: skip
_SBOXES = (
    (14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
     0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
     4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
     15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13),
    (15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
     3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
     0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
     13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9),
    (10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
     13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
     13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
     1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12),
    (7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
     13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
     10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
     3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14),
    (2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
     14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
     4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
     11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3),
    (12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
     10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
     9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
     4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13),
    (4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
     13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
     1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
     6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12),
    (13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
     1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
     7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
     2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11),
)  # fmt: skip

# The pre-expanded half ("x form") of a 32-bit DES half R is 34 bits wide: bit 33 holds R's bit 32,
# bits 32..1 hold R's bits 1..32 and bit 0 holds R's bit 1. The input of S-box j (the E expansion
# of R, before key and salt) is then bits 28-4j .. 33-4j of it. The even S-boxes' windows do not
# overlap each other, nor do the odd ones', but an even and an odd window do; so the state word
# holds the x form twice: the copy for the odd boxes in bits 0..33, the copy for the even boxes in
# bits 34..67. XOR-ing one packed subkey into it then gives all eight S-box inputs at once.
_XBITS = 34
_X_MASK = (1 << _XBITS) - 1
_WINDOW = 0x3FFF  # two 6-bit S-box inputs 8 bits apart (the 2 bits between are ignored)


def _window_shift(box: int) -> int:
    """Where S-box `box`'s input window starts in the packed word."""
    return 28 - 4 * box + (_XBITS if box % 2 == 0 else 0)


def _selection_tables(pairs: Sequence[tuple[int, int]], in_bits: int) -> list[list[int]]:
    """Byte-wise lookup tables for a bit selection: `pairs` are (output shift, 1-based input bit).

    Applying it to an `in_bits`-wide value is OR-ing `tables[c][byte c]` over its bytes, most
    significant byte first.
    """
    tables = []
    for c in range(in_bits // 8):
        masks = [0] * 8  # masks[b]: output bits fed by bit b (0 = most significant) of byte c
        for shift, pos in pairs:
            if 8 * c < pos <= 8 * c + 8:
                masks[pos - 8 * c - 1] |= 1 << shift
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value  # built from the same value without its lowest set bit
            table[value] = table[value ^ low] | masks[8 - low.bit_length()]
        tables.append(table)
    return tables


def _apply(tables: list[list[int]], value: int, in_bits: int) -> int:
    out = 0
    shift = in_bits - 8
    for table in tables:
        out |= table[(value >> shift) & 0xFF]
        shift -= 8
    return out


def _permutation_pairs(table: Sequence[int]) -> list[tuple[int, int]]:
    width = len(table)
    return [(width - 1 - i, pos) for i, pos in enumerate(table)]


def _packed_half_pairs(source: Sequence[int]) -> list[tuple[int, int]]:
    """Pairs placing a 32-bit half, whose bit n is input bit source[n-1], in both x-form copies."""
    middle = [(_XBITS - 1 - n, source[n - 1]) for n in range(1, 33)]
    x_form = [(_XBITS - 1, source[31]), *middle, (0, source[0])]
    return x_form + [(shift + _XBITS, pos) for shift, pos in x_form]


def _subkey_pairs() -> list[tuple[int, int]]:
    """Pairs taking C||D (56 bits) to a round's subkey bits at their S-box windows."""
    return [(_window_shift(box) + 5 - b, _PC2[6 * box + b]) for box in range(8) for b in range(6)]


_PC1_TABLES = _selection_tables(_permutation_pairs(_PC1), 64)
_SUBKEY_TABLES = _selection_tables(_subkey_pairs(), 56)
_FP_TABLES = _selection_tables(_permutation_pairs(_FP), 64)


def _sp_boxes() -> list[list[int]]:
    """For each S-box and 6-bit input: its output put through P, as a packed half."""
    p_tables = _selection_tables(_packed_half_pairs(_P), 32)
    boxes = []
    for j, sbox in enumerate(_SBOXES):
        column = []
        for v in range(64):
            row = ((v >> 4) & 2) | (v & 1)
            column.append(_apply(p_tables, sbox[16 * row + ((v >> 1) & 15)] << (28 - 4 * j), 32))
        boxes.append(column)
    return boxes


def _pair_table(high: list[int], low: list[int]) -> array[int]:
    """The merged lookup of two S-boxes, as one x-form copy (34 bits, 8 bytes an entry): the
    state's second copy is the same value 34 bits up, put back after the four lookups of a round."""
    return array("Q", ((high[i >> 8] ^ low[i & 63]) & _X_MASK for i in range(_WINDOW + 1)))


_SP = _sp_boxes()
_T0 = _pair_table(_SP[0], _SP[2])  # S1 and S3: the top 14 bits of the packed word
_T1 = _pair_table(_SP[4], _SP[6])  # S5 and S7: 14 bits from bit 38
_T2 = _pair_table(_SP[1], _SP[3])  # S2 and S4: 14 bits from bit 16
_T3 = _pair_table(_SP[5], _SP[7])  # S6 and S8: the low 14 bits
del _SP


def _salt_value(byte: int) -> int:
    """Classic glibc's ascii_to_bin on a (signed, as on x86) char, low six bits kept."""
    c = byte - 256 if byte >= 128 else byte
    if c >= ord("a"):
        c -= 59
    elif c >= ord("A"):
        c -= 53
    else:
        c -= ord(".")
    return c & 63


@cache
def _salt_mask(salt12: int) -> int:
    """Delta-swap mask for a salt: bits at the S5/S6 windows whose partners 16 bits up (S1/S2)
    trade places with them.

    Salt bit i swaps bits i+1 and i+25 of the E expansion: bits 0..5 pair S1 with S5, bits 6..11
    pair S2 with S6.
    """
    mask = 0
    for i in range(12):
        if salt12 >> i & 1:
            box, b = (4, i) if i < 6 else (5, i - 6)
            mask |= 1 << (_window_shift(box) + 5 - b)
    return mask


def _key_schedule(key: bytes) -> tuple[tuple[int, int], ...]:
    """The sixteen packed subkeys, two rounds to a tuple."""
    key = key.split(b"\0", 1)[0][:8]
    k64 = int.from_bytes(bytes((b << 1) & 0xFF for b in key).ljust(8, b"\0"), "big")
    cd = _apply(_PC1_TABLES, k64, 64)
    c, d = cd >> 28, cd & 0xFFFFFFF
    subkeys = []
    for r in _ROTATIONS:
        c = ((c << r) | (c >> (28 - r))) & 0xFFFFFFF
        d = ((d << r) | (d >> (28 - r))) & 0xFFFFFFF
        subkeys.append(_apply(_SUBKEY_TABLES, (c << 28) | d, 56))
    return tuple(zip(subkeys[0::2], subkeys[1::2], strict=True))


def _encrypt_zero_25(schedule: tuple[tuple[int, int], ...], salt_mask: int) -> int:
    """25 chained DES encryptions of the zero block; returns the 64-bit block before FP."""
    t0, t1, t2, t3, w = _T0, _T1, _T2, _T3, _WINDOW
    left = right = 0  # IP(0) == 0, and FP then IP between the chained encryptions cancel out
    for _ in range(25):
        for k1, k2 in schedule:
            t = (right ^ (right >> 16)) & salt_mask
            x = right ^ t ^ (t << 16) ^ k1
            f = t0[x >> 54] ^ t1[(x >> 38) & w] ^ t2[(x >> 16) & w] ^ t3[x & w]
            left ^= f | (f << _XBITS)
            t = (left ^ (left >> 16)) & salt_mask
            x = left ^ t ^ (t << 16) ^ k2
            f = t0[x >> 54] ^ t1[(x >> 38) & w] ^ t2[(x >> 16) & w] ^ t3[x & w]
            right ^= f | (f << _XBITS)
        # DES ends with the halves swapped; the next encryption starts from that block
        left, right = right, left
    return ((((left & _X_MASK) >> 1) & 0xFFFFFFFF) << 32) | (((right & _X_MASK) >> 1) & 0xFFFFFFFF)


def crypt(key: bytes, salt: bytes) -> bytes:
    """Traditional DES crypt(3) of `key` with the two-byte `salt`: 13 bytes, salt first."""
    if not isinstance(key, bytes | bytearray) or not isinstance(salt, bytes | bytearray):
        raise TypeError("crypt() takes bytes for key and salt")
    if len(salt) < 2 or 0 in salt[:2]:
        raise ValueError(f"crypt() needs a salt of two non-NUL bytes, got {bytes(salt)!r}")
    salt_mask = _salt_mask(_salt_value(salt[0]) | (_salt_value(salt[1]) << 6))
    block = _apply(_FP_TABLES, _encrypt_zero_25(_key_schedule(bytes(key)), salt_mask), 64)
    bits = block << 2  # 66 bits: eleven 6-bit characters
    return bytes(salt[:2]) + bytes(ALPHABET[(bits >> (60 - 6 * i)) & 63] for i in range(11))
