from __future__ import annotations

from parser.bcdice.choice import BRACKET, PAREN, SPACE, ItemRange, parse


def test_bracket_items_are_stripped_and_may_hold_parentheses() -> None:
    command = parse("choice[A(), B(), C()] カッコが終端として認識されない")
    assert (command.delimiter, command.items, command.takes) == (BRACKET, ("A()", "B()", "C()"), 1)


def test_paren_items_may_hold_brackets() -> None:
    assert parse("choice(A[], B[])").items == ("A[]", "B[]")
    assert parse("choice(A[], B[])").delimiter == PAREN


def test_space_items_run_to_the_end_of_the_line() -> None:
    command = parse("choice2 a b,c d")
    assert (command.delimiter, command.items, command.takes) == (SPACE, ("a", "b,c", "d"), 2)


def test_a_single_range_item_is_a_range_not_a_list() -> None:
    assert parse("choice[A-F]").items == ItemRange("A", "F")
    assert parse("choice[3-10]").items.items() == tuple(str(n) for n in range(3, 11))
    huge = parse("choice[1-99999999999]")
    assert huge.size == 99999999999
    assert parse("choice[A-F, Z]").items == ("A-F", "Z")


def test_secret_and_case() -> None:
    assert parse("sChoice[a,b]").secret
    upper = parse("CHOICE[a,b]")
    assert (upper.delimiter, upper.items, upper.takes, upper.secret) == (BRACKET, ("a", "b"), 1, False)


def test_not_choices() -> None:
    for text in [
        "choice[A,B,C,D)",
        "choice[A,B",
        "choice{A,B}",
        "choice[]",
        "choice[, ,,  ,]",
        "choice0[a,b]",
        "choice3[a,b]",
        "choice[F-A]",
        "choice[a-zz]",
        "choice[abc]",
        "choice[A,B] foo,bar",
        "choice",
        "choices a b",
    ]:
        assert parse(text) is None, text
