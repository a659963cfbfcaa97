"""The published test vectors of the README (computed with openssl and bc, not with threadgm): the
scheme anyone can re-implement, pinned — a flipped byte order or a changed message fails here."""

from __future__ import annotations

import hashlib

from engine.keys import clocked_period_key, commitment, period_key, rules_secret, secret_key
from engine.rng import SeededDice, stream_words

SEED = bytes.fromhex("f2df830bccb8fdd844bf4a92b390ce19c88fcc609a6a42edafd6b8539d3f84f6")
DAY_KEY = bytes.fromhex("cdc8a543fb88542e7cb096ec02bf7b6fc4eb078fb859977dff78c67901dea537")
PURPOSE = "1795954933/5/0"  # post 5 of thread 1795954933, its first command
WORDS = [11377236039711519294, 14191473161815694172, 17711430270058988976, 5376278263254067368]


def test_the_seed_and_the_day_key() -> None:
    assert hashlib.sha256(b"threadgm test vector seed").digest() == SEED
    assert period_key(SEED, "demo", "2026-11-29") == DAY_KEY
    assert commitment(DAY_KEY) == "a7b7fbfc6529434ffbd414689f066a73f1364fc2259c2bedc34f1418a3eed7a8"


def test_the_words_of_a_stream() -> None:
    words = stream_words(DAY_KEY, PURPOSE)
    assert [next(words) for _ in range(5)] == [*WORDS, 0x50572D148089E4F2]


def test_the_blocks_go_on_counting() -> None:
    # Words 4-7 are block 1, word 8 opens block 2: HMAC-SHA256(day key, "1795954933/5/0|2") (openssl).
    words = stream_words(DAY_KEY, PURPOSE)
    later = [next(words) for _ in range(9)][5:]
    assert later == [6646507102759121506, 15241958901789768864, 16505576750685904971, 0x500D000B7EF93B87]


def test_the_faces_of_a_d6_a_d47_and_a_d100() -> None:
    dice = SeededDice(DAY_KEY, PURPOSE)
    assert [dice.roll(6), dice.roll(47), dice.roll(100)] == [1, 26, 77]


def test_a_rejected_word_is_skipped() -> None:
    sides = 2**63 + 1  # words at or above 2^64 - (2^64 mod sides) = 2^63 + 1 are thrown away
    assert SeededDice(DAY_KEY, PURPOSE).roll(sides) == WORDS[3] + 1


def test_the_secret_roll_key() -> None:
    expected = "1c705889437d39ada9226c889f1db4547930e216e211a6d0fe7ef8bba6411355"
    assert secret_key(SEED, "demo", "1795954933", 5, 0).hex() == expected


def test_the_key_of_a_period_on_the_clock_and_of_the_rules_secret() -> None:
    # HMAC-SHA256(seed, "period|demo|P1") and HMAC-SHA256(seed, "secret|demo|rules"), by openssl.
    assert clocked_period_key(SEED, "demo", 1).hex() == (
        "612bd4789c614173676bdb752648a970ab435412fcbe1dc57fdeb9f259758eb5"
    )
    assert rules_secret(SEED, "demo").hex() == (
        "988995f6430ebb3c20d55992f546e0991c9eb12909ba18756ae3bca42e9a7d5e"
    )


def test_the_word_at_the_bound_is_rejected_and_the_one_below_it_taken() -> None:
    # A die of WORDS[0] sides: 2^64 - (2^64 mod s) is WORDS[0] itself (bc), so the first word lies
    # exactly on the bound and is skipped, as are the next two (above it); the fourth is taken.
    assert SeededDice(DAY_KEY, PURPOSE).roll(WORDS[0]) == WORDS[3] % WORDS[0] + 1 == 5376278263254067369
    # One side more moves the bound one up: the first word is then just under it and taken.
    assert SeededDice(DAY_KEY, PURPOSE).roll(WORDS[0] + 1) == WORDS[0] + 1
