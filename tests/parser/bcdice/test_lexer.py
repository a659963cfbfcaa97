from __future__ import annotations

import pytest

from parser.bcdice.lexer import CMP, NUMBER, Cursor, comparison_operator, first_word, to_int, tokenize
from parser.bcdice.limits import MAX_NESTING, MAX_NUMBER_DIGITS, LimitExceeded


def test_first_word_skips_leading_space_and_cuts_the_comment() -> None:
    assert first_word("  2D6>=7 判定\tです") == "2D6>=7"
    assert first_word("2D6\tcomment") == "2D6"
    assert first_word("   ") == ""


def test_tokens_upper_case_letters_and_group_digits_and_comparisons() -> None:
    kinds = [(token.kind, token.text) for token in tokenize("2d10kh3>=12 comment")]
    assert kinds == [
        (NUMBER, "2"),
        ("D", "d"),
        (NUMBER, "10"),
        ("K", "k"),
        ("H", "h"),
        (NUMBER, "3"),
        (CMP, ">="),
        (NUMBER, "12"),
    ]


@pytest.mark.parametrize(
    ("run", "op"),
    [
        ("<=", "<="),
        ("=<", "<="),
        (">=", ">="),
        ("=>", ">="),
        ("<>", "!="),
        ("!=", "!="),
        ("=!", "!="),
        ("<", "<"),
        (">", ">"),
        ("=", "=="),
        ("==", "=="),
        ("<=>", "<="),
        ("!", None),
    ],
)
def test_comparison_operators_normalise_like_bcdice(run: str, op: str | None) -> None:
    assert comparison_operator(run) == op
    assert tokenize(f"1{run}2")[1].op == op


def test_numbers_over_the_digit_limit_are_refused_only_when_read() -> None:
    huge = "9" * (MAX_NUMBER_DIGITS + 1)
    tokens = tokenize(huge)  # lexing alone never refuses
    with pytest.raises(LimitExceeded, match="大きすぎ"):
        Cursor(tokens).accept_number()
    assert to_int("0" * 500 + "7") == 7


def test_cursor_refuses_nesting_past_the_limit() -> None:
    cursor = Cursor([])
    for _ in range(MAX_NESTING):
        cursor.enter()
    with pytest.raises(LimitExceeded, match="入れ子"):
        cursor.enter()


def test_unrecognisable_comparison_is_not_consumed() -> None:
    cursor = Cursor(tokenize("!5"))
    assert cursor.accept_cmp() is None
    assert cursor.peek_kind() == CMP
