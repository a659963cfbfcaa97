"""The one number reader: NFKC, ASCII digits only, a cap per field, a reason for everything else."""

from __future__ import annotations

import pytest

from parser.numbers import NotANumber, number_or_error, read_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("42", 42),
        ("４２", 42),
        (" 7 ", 7),
        ("007", 7),
        ("000000000000042", 42),
        ("0", 0),
        ("①", 1),
    ],  # NFKC maps ① to 1
)
def test_digits_half_and_full_width_are_read(text: str, value: int) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(
    "text", ["፩", "᧚", "𐩀", "𐹠", "٣", "४२", "4፩", "1.5", "1e3", "0x10", "", "  ", "+3", "-3"]
)
def test_anything_but_ascii_digits_is_refused_with_a_reason(text: str) -> None:
    refused = read_number(text, what="予想")
    assert isinstance(refused, NotANumber) and refused.reason.startswith("予想")


def test_a_huge_number_is_refused_without_building_it() -> None:
    refused = read_number("9" * 4400, what="座標", digits=4)
    assert isinstance(refused, NotANumber) and "4桁まで" in refused.reason
    assert len(refused.reason) < 40  # the field is not echoed whole


def test_leading_zeros_do_not_count_against_the_cap() -> None:
    assert read_number("0" * 50 + "12", digits=2) == 12


def test_bounds_and_signs() -> None:
    assert read_number("-100", signed=True) == -100 and read_number("＋5", signed=True) == 5
    assert isinstance(read_number("+-100", signed=True), NotANumber)
    bounded = read_number("101", what="予想", low=1, high=100)
    assert isinstance(bounded, NotANumber) and bounded.reason == "予想は1～100で書いてください"
    assert read_number("0", low=0) == 0
    with pytest.raises(ValueError, match="数字"):
        number_or_error("፩")


def test_the_shared_grammars_take_ascii_digits_only() -> None:
    from parser.bbs_dice import BbsDiceError, find_bbs_dice
    from parser.gm import GmError, Void, find_gm_commands

    assert find_bbs_dice("dice2d6=")
    (refused,) = find_bbs_dice("dice٢d٦=")  # never rolled; told to write 0–9, as the GM line below
    assert isinstance(refused, BbsDiceError)
    (voided,) = find_gm_commands("無効 >>12")
    assert isinstance(voided.result, Void) and voided.result.posts == (12,)
    (other,) = find_gm_commands("無効 >>٣")
    assert isinstance(other.result, GmError)
