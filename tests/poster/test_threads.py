"""Titles of the next part of a thread."""

from __future__ import annotations

import pytest

from poster.threads import next_title


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("都道府県バトロワ", "都道府県バトロワ Part2"),
        ("都道府県バトロワ Part3", "都道府県バトロワ Part4"),
        ("海戦スレ part9", "海戦スレ part10"),
        ("TRPGスレ その2", "TRPGスレ その3"),
        ("ダイス5スレ目", "ダイス6スレ目"),
        ("2026年 第1期 Part12", "2026年 第1期 Part13"),
        ("ＴＲＰＧスレＰａｒｔ２", "ＴＲＰＧスレＰａｒｔ３"),
        ("その９", "その１０"),
        ("雑談", "雑談 Part2"),
    ],
)
def test_next_title(title: str, expected: str) -> None:
    assert next_title(title) == expected
