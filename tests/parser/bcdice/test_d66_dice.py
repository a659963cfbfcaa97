from __future__ import annotations

from parser.bcdice.d66_dice import ASCENDING, DESCENDING, NO_SORT, D66Dice, parse


def test_suffixes_and_their_order() -> None:
    assert parse("d66a コメント") == D66Dice(False, "A")
    assert parse("SD66").secret
    assert parse("D66S").sort == ASCENDING
    assert parse("D66D").sort == DESCENDING
    assert parse("D66N").sort == NO_SORT
    assert parse("D66").sort == NO_SORT


def test_not_d66() -> None:
    assert parse("D66X") is None
    assert parse("2D66") is None
    assert parse("D6") is None
