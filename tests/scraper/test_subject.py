"""subject.txt: which threads a board still lists, in both dialects."""

from __future__ import annotations

from pathlib import Path

from werkzeug.wrappers import Response

from board.admin import open_thread
from board.server import make_app
from scraper.fetch import make_session
from scraper.refs import ThreadRef
from scraper.subject import listed_keys, still_listed
from tests.scripted import scripted_server


def test_keys_of_both_formats() -> None:
    assert listed_keys("1795954933.dat<>スレ (5)\n1795954000.dat<>(1) (2)\n") == {"1795954933", "1795954000"}
    assert listed_keys("1795954933.cgi,スレ(5)\n1795954000.cgi,別(1)\n1795954933.cgi,スレ(5)\n") == {
        "1795954933",
        "1795954000",
    }
    assert listed_keys("壊れた行\n<html>\n") == set()


def test_still_listed_on_the_local_board(tmp_path: Path) -> None:
    app = make_app(tmp_path, ["test"])
    key = open_thread(tmp_path, "test", "一覧", "一番")
    server, script = scripted_server(app)
    try:
        session = make_session()
        for path in (f"/test/read.cgi/test/{key}/", f"/bbs/read.cgi/local/test/{key}/"):
            assert still_listed(session, ThreadRef.from_url(server.url + path)) is True
        assert (
            still_listed(session, ThreadRef.from_url(f"{server.url}/test/read.cgi/test/1111111111/")) is False
        )
        script.script("GET", "/test/subject.txt", lambda r, f: Response(b"oops", status=503))
        assert still_listed(session, ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")) is None
        dead = ThreadRef.from_url(f"http://127.0.0.1:9/test/read.cgi/test/{key}/")
        assert still_listed(session, dead) is None
    finally:
        server.close()


def test_a_title_holding_line_lookalikes_lists_no_forged_thread() -> None:
    from scraper.subject import listed_keys

    text = "1700000000.dat<>題\x1c1800000000.dat<>偽\u20281900000000.dat<>偽 (3)\n1600000000.dat<>二 (1)\n"
    assert listed_keys(text) == {"1700000000", "1600000000"}
