"""The dice sources every rule rolls with: seeded streams remember what they rolled (reports and
audits read it), recorded dice refuse anything but what was recorded, and a ruleset's `secret/`
purposes roll on the secret key while everything else rolls on the public one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import (
    DiceError,
    RecordedDice,
    RecordedSource,
    SeededDice,
    SeededSource,
    SplitSource,
    _block,
    face_from_word,
    parse_rands,
    roll_many,
    stream_words,
)

KEY = b"\x01" * 32


def test_seeded_dice_remember_each_roll_with_its_sides() -> None:
    dice = SeededDice(KEY, "p")
    faces = [dice.roll(6), dice.roll(100), dice.roll(2)]
    assert dice.rolled == [(6, faces[0]), (100, faces[1]), (2, faces[2])]
    assert dice.purpose == "p"


def test_each_purpose_restarts_from_its_first_word() -> None:
    source = SeededSource(KEY)
    first = [source.stream("a").roll(1000) for _ in range(3)]
    assert len(set(first)) == 1  # a fresh stream each time
    words = stream_words(KEY, "a")
    assert first[0] == face_from_word(next(words), 1000)
    assert source.stream("b").roll(10**9) != source.stream("a").roll(10**9)


def test_recorded_dice_give_exactly_what_was_recorded() -> None:
    dice = RecordedDice([(6, 3), (100, 57)])
    assert dice.remaining == 2
    assert (dice.roll(6), dice.roll(100)) == (3, 57)
    assert dice.rolled == [(6, 3), (100, 57)] and dice.remaining == 0
    with pytest.raises(DiceError, match="no recorded die left for a d6"):
        dice.roll(6)


def test_recorded_dice_refuse_other_sides_and_impossible_faces() -> None:
    with pytest.raises(DiceError, match="#1 has 6 sides but the rules rolled a d8"):
        RecordedDice([(6, 3)]).roll(8)
    with pytest.raises(DiceError, match=r"#2 shows 7, outside 1\.\.6"):
        dice = RecordedDice([(6, 1), (6, 7)])
        dice.roll(6)
        dice.roll(6)
    with pytest.raises(DiceError, match="shows 0"):
        RecordedDice([(6, 0)]).roll(6)


def test_a_recorded_source_per_purpose_with_a_default() -> None:
    default = RecordedDice([(6, 6)])
    source = RecordedSource({"target": [(100, 45)]}, default=default)
    assert source.stream("target").roll(100) == 45
    assert source.stream("anything") is default and source.stream("x").roll(6) == 6
    with pytest.raises(DiceError, match="no recorded dice for purpose 'x'"):
        RecordedSource({"target": []}).stream("x")


def test_secret_purposes_roll_on_the_secret_key_only() -> None:
    public, secret = SeededSource(b"\x02" * 32), SeededSource(b"\x03" * 32)
    split = SplitSource(public, secret)
    assert split.stream("secret/mastermind").roll(10**9) == secret.stream("secret/mastermind").roll(10**9)
    assert split.stream("secret/mastermind").roll(10**9) != public.stream("secret/mastermind").roll(10**9)
    assert split.stream("battle/1").roll(10**9) == public.stream("battle/1").roll(10**9)
    assert split.stream("battle/1").roll(10**9) != secret.stream("battle/1").roll(10**9)


def test_rands_text() -> None:
    assert parse_rands("6:3, 6:4,,100:57 ") == [(6, 3), (6, 4), (100, 57)]
    for bad in ("6-3", "6:x", ":3", "6:"):
        with pytest.raises(ValueError, match="is not SIDES:VALUE"):
            parse_rands(bad)


def test_a_die_without_sides_is_an_error_that_says_so() -> None:
    with pytest.raises(ValueError, match="at least one side, not 0"):
        face_from_word(5, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.sampled_from([1, 2, 6, 10, 100, 2**63 + 1, 3 * 2**62, 2**64 - 1]),
                st.integers(1, 2**64 - 1),
            ),
            st.integers(0, 9),
            st.booleans(),
        ),
        max_size=12,
    ),
    st.text(max_size=8),
)
def test_batched_faces_are_the_stream_s_faces_word_for_word(
    steps: list[tuple[int, int, bool]], purpose: str
) -> None:
    """`roll_many` and `roll`, in any mix, give what `face_from_word` makes of the stream's words
    (rejections included: d(2^63+1) throws away almost half of them)."""
    words = stream_words(KEY, purpose)
    dice = SeededDice(KEY, purpose)
    expected: list[tuple[int, int]] = []
    for sides, count, batched in steps:
        wanted = []
        while len(wanted) < count:
            face = face_from_word(next(words), sides)
            if face is not None:
                wanted.append(face)
        got = dice.roll_many(sides, count) if batched else [dice.roll(sides) for _ in range(count)]
        assert got == wanted
        expected += [(sides, face) for face in wanted]
    assert dice.rolled == expected


def test_roll_many_takes_any_dice() -> None:
    recorded = RecordedDice([(6, 2), (6, 5)])
    assert roll_many(recorded, 6, 2) == [2, 5] and recorded.remaining == 0
    one_by_one = SeededDice(KEY, "p")
    assert roll_many(SeededDice(KEY, "p"), 6, 3) == [one_by_one.roll(6) for _ in range(3)]


@pytest.mark.parametrize("key", [b"", b"\x01" * 32, bytes(range(64)), bytes(range(65)), b"k" * 200])
def test_a_block_is_hmac_sha256_of_the_purpose_and_its_number(key: bytes) -> None:
    import hashlib
    import hmac

    for purpose, block in (("p", 0), ("naval/ABC", 3), ("日本語|x", 12)):
        digest = hmac.digest(key, f"{purpose}|{block}".encode(), hashlib.sha256)
        words = [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
        assert list(_block(key, purpose, block)) == words


def test_no_dice_or_fewer_are_no_faces_and_leave_the_stream_as_it_was() -> None:
    dice, fresh = SeededDice(KEY, "p"), SeededDice(KEY, "p")
    assert dice.roll_many(6, 0) == [] and dice.roll_many(6, -3) == []
    assert dice.roll_many(6, 5) == fresh.roll_many(6, 5) and dice.rolled == fresh.rolled
