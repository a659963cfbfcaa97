"""The rejection bound of the verifiable dice, word by word: a word maps to a face only below
2^64 - (2^64 mod s), so every face of an s-sided die has the same number of words (no modulo bias)."""

from __future__ import annotations

import pytest

from engine.rng import face_from_word

WORD = 1 << 64
SIDES = [1, 2, 3, 6, 47, 100, 9999, 2**32 + 15, 2**63 + 1, 2**64 - 1]


def bound(sides: int) -> int:
    return WORD - WORD % sides


@pytest.mark.parametrize("sides", SIDES)
def test_the_words_on_both_sides_of_the_bound(sides: int) -> None:
    limit = bound(sides)
    assert face_from_word(limit - 1, sides) == sides  # the last word in is the top face
    if limit < WORD:
        assert face_from_word(limit, sides) is None  # the first word out: thrown away, never face 1
        assert face_from_word(WORD - 1, sides) is None
    assert face_from_word(0, sides) == 1
    assert face_from_word(limit - sides, sides) == 1  # the last full round of faces starts with 1


@pytest.mark.parametrize("sides", [2, 6, 47, 100])
def test_each_face_has_the_same_number_of_words(sides: int) -> None:
    # The bound keeps whole rounds of faces only: count the words of each face in a full round at the
    # top (the words just under the bound) — each face exactly once, and nothing at or above the bound.
    limit = bound(sides)
    top = [face_from_word(word, sides) for word in range(limit - sides, limit)]
    assert sorted(top) == list(range(1, sides + 1))
    assert {face_from_word(word, sides) for word in range(limit, min(limit + sides, WORD))} <= {None}
    assert limit % sides == 0


def test_a_die_needs_a_side() -> None:
    with pytest.raises(ValueError):
        face_from_word(0, 0)
