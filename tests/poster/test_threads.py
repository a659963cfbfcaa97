"""The next part of a thread: its title, the notice when it could not be opened, and answers moved
there pointing back at the old thread's posts."""

from __future__ import annotations

import pytest

from poster.threads import next_title, open_failed_notice, point_back


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


OLD = "http://example.jp/test/read.cgi/game/1795954933/"


def test_moved_answers_name_the_old_threads_posts_by_address_or_in_words() -> None:
    body = ">>3>>5-7 受付\n二行目 >>9 はそのまま\n>>12\n"
    assert point_back(body, OLD) == (f"前スレ {OLD}3{OLD}5-7 受付\n二行目 >>9 はそのまま\n前スレ {OLD}12\n")
    assert point_back(body, OLD, short=True) == "前スレ3番・5-7番 受付\n二行目 >>9 はそのまま\n前スレ12番\n"


def test_the_failed_opening_tells_the_gm_the_command_that_moves_the_game() -> None:
    from parser.gm import NextThread, parse_gm_line

    notice = open_failed_notice("スレッド立てすぎです。")
    assert notice == (
        "次スレを立てられませんでした（スレッド立てすぎです。）。しばらくして立て直します。"
        "GMさんが立てた場合は、このスレに「次スレ URL」と書き込んでください"
    )
    assert parse_gm_line(f"次スレ {OLD}") == NextThread(OLD)  # what it asks the GM to write is read
