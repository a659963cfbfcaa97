"""A board's settings (SETTING.TXT, したらば's setting.cgi) are read only from an answer that is one:
`KEY=VALUE` lines in the board's charset naming the board's BBS_ settings. A maintenance page, a
portal, an empty or re-encoded answer is none — taken for one, its lack of BBS_SAMBATIME or
timeclose would drop the board's brakes (or a page's `BBS_THREAD_STOP=5` end the thread) — and the
bot keeps the limits it read before."""

from __future__ import annotations

import pytest
from werkzeug.wrappers import Response

from scraper.fetch import make_session
from scraper.settings import BoardLimits, limits_from, parse_settings, read_limits
from tests.conftest import shared_path
from tests.scraper.test_fetch import Board


def test_the_captured_ex0ch_settings() -> None:
    text = shared_path("fixtures", "ex0ch", "SETTING.TXT").read_bytes().decode("cp932")
    limits = limits_from(parse_settings(text))
    assert limits.res_max == 1000 and limits.lines == 24 and limits.chars == 2048  # samba and timeclose empty


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_the_board_s_settings_are_read(board: Board, dialect: str) -> None:
    limits = read_limits(make_session(), board.ref(dialect))
    assert limits is not None and limits.samba == 0


PAGES = {
    "maintenance": "<html><body>メンテナンス中です<br>BBS_THREAD_STOP=5</body></html>\n".encode("cp932"),
    "portal": b'<html><head><meta http-equiv="refresh" content="0;url=http://portal.example/"></head></html>',
    "empty": b"",
    "no setting of a board": "ようこそ=ゲスト\n".encode("cp932"),
    "re-encoded": "BBS_TITLE=検証板\nBBS_SAMBATIME=10\n".encode(),
}


@pytest.mark.parametrize("page", PAGES.values(), ids=PAGES.keys())
def test_an_answer_that_is_no_settings_file_is_none(board: Board, page: bytes) -> None:
    board.script.script("GET", "/test/SETTING.TXT", lambda r, f: Response(page), times=None)
    assert read_limits(make_session(), board.ref()) is None


def test_a_settings_file_without_a_setting_gets_the_defaults_not_an_error() -> None:
    assert limits_from(parse_settings("board@test\nBBS_TITLE=検証板\n")) == BoardLimits()
