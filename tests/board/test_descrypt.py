"""board.descrypt: traditional DES crypt(3) on bytes."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from board.descrypt import ALPHABET, crypt

ROOT = Path(__file__).resolve().parents[2]

# Published vectors, each also checked here against this system's libcrypt when writing them:
# the PHP manual's "Standard DES" example, OpenSSL's destest.c, and passlib's des_crypt cases
# (empty key, key longer than 8 bytes, bytes with bit 7 set).
PUBLISHED = [
    (b"rasmuslerdorf", b"rl", b"rl.3StKT.4T8M"),
    (b"testing", b"ef", b"efGnQx2725bI2"),
    (b"bca76;23", b"yA", b"yA1Rp/1hZXIJk"),
    (b"", b"Og", b"OgAwTx2l6NADI"),
    (b" ", b"/H", b"/Hk.VPuwQTXbc"),
    (b"test", b"N1", b"N1tQbOFcM5fpg"),
    (b"Compl3X AlphaNu3meric", b"um", b"um.Wguz3eVCx2"),
    (b"AlOtBsOl", b"cE", b"cEpWz5IUCShqM"),
    ("hell\u00d6".encode(), b"sa", b"saykDgk3BPZ9E"),
    (b"tea", b"ea", b"eauWokonZwxw2"),  # 2ch's ◆WokonZwxw2
]


@pytest.mark.parametrize(("key", "salt", "expected"), PUBLISHED)
def test_published_vectors(key: bytes, salt: bytes, expected: bytes) -> None:
    assert crypt(key, salt) == expected


def _stdlib_crypt() -> ModuleType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pytest.importorskip("crypt", reason="the stdlib crypt module is gone (Python 3.13+)")


def _random_key(rng: random.Random, alphabet: str) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def test_agrees_with_the_stdlib_crypt_on_random_printable_keys_and_salts() -> None:
    stdlib = _stdlib_crypt()
    rng = random.Random(20261129)
    printable = "".join(chr(c) for c in range(0x20, 0x7F))
    salts = ALPHABET.decode("ascii")
    for _ in range(400):
        key = _random_key(rng, printable)
        salt = rng.choice(salts) + rng.choice(salts)
        assert crypt(key.encode("ascii"), salt.encode("ascii")).decode("ascii") == stdlib.crypt(key, salt), (
            key,
            salt,
        )


def test_agrees_with_the_stdlib_crypt_on_bytes_with_bit_7_set() -> None:
    # the stdlib hashes the UTF-8 bytes of its str, so non-ASCII text gives high-bit key bytes
    stdlib = _stdlib_crypt()
    rng = random.Random(932)
    letters = "aZ09#.ÖéあアｱⅠ＃◆★"
    for _ in range(100):
        key = _random_key(rng, letters)
        assert crypt(key.encode("utf-8"), b"H.").decode("ascii") == stdlib.crypt(key, "H."), key


def test_result_shape() -> None:
    result = crypt(b"key", b"Zz")
    assert len(result) == 13
    assert result[:2] == b"Zz"
    assert all(c in ALPHABET for c in result[2:])
    assert result[-1] in ALPHABET[::4]  # the last character holds the last 4 bits and two zero bits


def test_only_the_first_eight_bytes_count() -> None:
    assert crypt(b"12345678", b"ab") == crypt(b"12345678XYZ", b"ab")
    assert crypt(b"1234567", b"ab") != crypt(b"12345678", b"ab")


def test_a_nul_byte_ends_the_key() -> None:
    assert crypt(b"ab\x00cd", b"ab") == crypt(b"ab", b"ab")
    assert crypt(b"\x00anything", b"ab") == crypt(b"", b"ab")
    assert crypt(b"ab\x00cd", b"ab") != crypt(b"abcd", b"ab")


def test_bit_7_of_key_bytes_is_ignored() -> None:
    assert crypt(b"\xb1\xb2\xb3", b"..") == crypt(b"123", b"..")
    # 0x80 is a zero key byte to crypt(3), not the end of the key (that cut is 2ch's, not crypt's)
    assert crypt(b"a\x80b", b"..") != crypt(b"a", b"..")
    assert crypt(b"a\x80b\x80", b"..") == crypt(b"a\x80b", b"..")  # a zero byte, like the padding
    assert crypt(b"a\x80b\xff", b"..") == crypt(b"a\x80b\x7f", b"..")


def test_salt_bytes_beyond_two_are_ignored() -> None:
    assert crypt(b"tea", b"eaXYZ") == crypt(b"tea", b"ea")


def test_every_salt_changes_the_result() -> None:
    results = {crypt(b"tea", bytes([a, b]))[2:] for a in ALPHABET for b in ALPHABET[::7]}
    assert len(results) == len(ALPHABET) * len(ALPHABET[::7])


@pytest.mark.parametrize(
    ("odd", "legal"),
    [
        (b":;", b"AB"),  # 0x3A..0x40 read as 12..18, as 2ch's tr table maps them
        (b"@[", b"Ga"),
        (b"`\\", b"fb"),
        (b"{|", b"./"),  # past 'z' the value wraps at 64
        (b"-.", b"z."),  # below '.' too: -1 keeps its low six bits
        (b"\xa0\xff", b"mF"),  # read as signed chars: -96 - 46 = -142 -> 50, -1 - 46 = -47 -> 17
    ],
)
def test_salt_bytes_outside_the_alphabet_read_as_classic_glibc(odd: bytes, legal: bytes) -> None:
    assert crypt(b"tea", odd)[2:] == crypt(b"tea", legal)[2:]
    assert crypt(b"tea", odd)[:2] == odd


def test_2ch_salt_table_is_what_glibc_reads_anyway() -> None:
    table = bytes.maketrans(b":;<=>?@[\\]^_`", b"ABCDEFGabcdef")
    for c in range(0x2E, 0x7B):
        salt = bytes([c, c])
        assert crypt(b"key", salt)[2:] == crypt(b"key", salt.translate(table))[2:], chr(c)


@pytest.mark.parametrize("salt", [b"", b"a", b"a\x00", b"\x00a"])
def test_short_or_nul_salt_is_refused(salt: bytes) -> None:
    with pytest.raises(ValueError, match="salt"):
        crypt(b"key", salt)


def test_str_arguments_are_refused() -> None:
    with pytest.raises(TypeError):
        crypt("tea", b"ea")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        crypt(b"tea", "ea")  # type: ignore[arg-type]


def test_bytearray_is_accepted() -> None:
    assert crypt(bytearray(b"tea"), bytearray(b"ea")) == b"eauWokonZwxw2"


def test_the_tables_take_well_under_a_megabyte() -> None:
    # Every process that computes a trip holds them (the bot computes its own at start): four
    # 16384-entry tables of one 64-bit word each, not lists of big ints (~4 MiB).
    code = (
        "import tracemalloc; tracemalloc.start(); import board.descrypt; "
        "print(tracemalloc.get_traced_memory()[0])"
    )
    held = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert int(held.stdout) < 1.5 * 2**20
