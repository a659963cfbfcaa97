"""subject.txt: which threads a board lists, in both dialects — and only from an answer that is the
board's list."""

from __future__ import annotations

from pathlib import Path

import pytest
from werkzeug.wrappers import Response

from board.admin import open_thread
from board.server import make_app
from scraper.fetch import make_session
from scraper.refs import ThreadRef
from scraper.subject import read_list, thread_list
from tests.conftest import shared_path
from tests.scripted import scripted_server

TWOCH = ThreadRef.from_url("http://example.test/test/read.cgi/barcheck/1795954933/")
JBBS = ThreadRef.from_url("http://example.test/bbs/read.cgi/local/test/1795954933/")


def test_the_captured_ex0ch_list() -> None:
    data = shared_path("fixtures", "ex0ch", "subject.txt").read_bytes()
    assert thread_list(data, TWOCH) == ["1795954933", "1795954787", "1795954696", "1795954616", "1795954594"]


def test_keys_of_both_formats() -> None:
    assert thread_list("1795954933.dat<>スレ (5)\n1795954000.dat<>(1) (2)\n".encode("cp932"), TWOCH) == [
        "1795954933",
        "1795954000",
    ]
    shitaraba = "1795954933.cgi,スレ(5)\n1795954000.cgi,別(1)\n1795954933.cgi,スレ(5)\n".encode("euc_jp")
    assert thread_list(shitaraba, JBBS) == ["1795954933", "1795954000"]


@pytest.mark.parametrize(
    ("data", "ref"),
    [
        ("<html><title>メンテナンス中</title></html>\n".encode("cp932"), TWOCH),
        (b"", TWOCH),
        ("1795954933.dat<>スレ (5)\n1795954000.dat<>途中で".encode("cp932"), TWOCH),  # cut short
        ("1795954933.dat<>スレ (5)\n1795954000.dat<>途中で切れ (".encode("cp932"), TWOCH),
        ("1795954933.dat<>スレ (5)\n".encode(), TWOCH),  # re-encoded on the way
        ("1795954933.cgi,スレ(5)\n".encode("cp932"), TWOCH),  # the other dialect's list
        ("1795954933.cgi,スレ(5)\n1795954000.cgi,別(1)\n".encode("euc_jp"), JBBS),  # no repeated line
        ("1795954933.dat<>スレ (5)\n".encode("euc_jp"), JBBS),
    ],
    ids=[
        "maintenance",
        "empty",
        "cut in a title",
        "cut in a count",
        "UTF-8",
        "したらば on 2ch",
        "no repeat",
        "2ch on したらば",
    ],
)
def test_an_answer_that_is_not_the_board_s_list_is_no_list(data: bytes, ref: ThreadRef) -> None:
    assert thread_list(data, ref) is None


def test_a_title_holding_line_lookalikes_lists_no_forged_thread() -> None:
    # str.splitlines would break on \x1c and \x0b: a title could then forge a line of its own
    text = "1700000000.dat<>題\x1c1800000000.dat<>偽\x0b1900000000.dat<>偽 (3)\n1600000000.dat<>二 (1)\n"
    assert thread_list(text.encode("cp932"), TWOCH) == ["1700000000", "1600000000"]


def test_read_list_on_the_local_board(tmp_path: Path) -> None:
    app = make_app(tmp_path, ["test"])
    key = open_thread(tmp_path, "test", "一覧", "一番")
    other = open_thread(tmp_path, "test", "別の一覧", "一番")
    server, script = scripted_server(app)
    try:
        session = make_session()
        for path in (f"/test/read.cgi/test/{key}/", f"/bbs/read.cgi/local/test/{key}/"):
            assert sorted(read_list(session, ThreadRef.from_url(server.url + path)) or []) == sorted(
                [key, other]
            )
        ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
        script.script("GET", "/test/subject.txt", lambda r, f: Response(b"oops", status=503))
        assert read_list(session, ref) is None
        script.script("GET", "/test/subject.txt", lambda r, f: Response(b"", status=200))
        assert read_list(session, ref) is None
        dead = ThreadRef.from_url(f"http://127.0.0.1:9/test/read.cgi/test/{key}/")
        assert read_list(session, dead) is None
    finally:
        server.close()
