"""subject.txt: which threads a board lists, in both dialects — and only from an answer that is the
board's list."""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

from board.admin import open_thread
from board.server import make_app
from engine.keys import JST
from scraper.fetch import USER_AGENT, make_session
from scraper.gone import LIST_AGE, LIST_RETRY
from scraper.http import Reader
from scraper.refs import ThreadRef
from scraper.subject import BoardLists, read_list, thread_list
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
        ("１７９５９５４９３３.dat<>スレ (5)\n".encode("cp932"), TWOCH),  # keys are ASCII digits
        ("１７９５９５４９３３.cgi,スレ(5)\n１７９５９５４９３３.cgi,スレ(5)\n".encode("euc_jp"), JBBS),
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
        "full-width key",
        "full-width key on したらば",
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


def test_the_games_of_one_board_share_one_reading_of_its_list(tmp_path: Path) -> None:
    app = make_app(tmp_path, ["test", "other"])
    keys = [open_thread(tmp_path, "test", f"一覧{n}", "一番") for n in range(3)]
    elsewhere = open_thread(tmp_path, "other", "別の板", "一番")
    server, script = scripted_server(app)
    try:
        lists = BoardLists(Reader(USER_AGENT))
        refs = [ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/") for key in keys]
        t0 = datetime(2026, 12, 2, 1, 0, tzinfo=JST)
        first = lists.current(refs[0], t0)
        assert first is not None and first.keys == frozenset(keys) and first.at == t0
        # the other games of the board get the same list, one object, without asking the board
        assert all(lists.current(ref, t0 + LIST_AGE / 2) is first for ref in refs)
        assert script.count("GET", "/test/subject.txt") == 1
        other = lists.current(ThreadRef.from_url(f"{server.url}/test/read.cgi/other/{elsewhere}/"), t0)
        assert other is not None and other.keys == {elsewhere}  # each board its own
        # once LIST_AGE old the list is read again; one that cannot be read is not asked every poll
        script.script("GET", "/test/subject.txt", lambda r, f: Response(b"oops", status=503))
        assert lists.current(refs[1], t0 + LIST_AGE) is None
        assert lists.current(refs[2], t0 + LIST_AGE + LIST_RETRY / 2) is None
        assert script.count("GET", "/test/subject.txt") == 2
        again = lists.current(refs[2], t0 + LIST_AGE + LIST_RETRY)
        assert again is not None and again.keys == frozenset(keys) and again.at == t0 + LIST_AGE + LIST_RETRY
        assert script.count("GET", "/test/subject.txt") == 3
    finally:
        server.close()


def test_games_asking_at_once_wait_for_one_reading(tmp_path: Path) -> None:
    app = make_app(tmp_path, ["test"])
    key = open_thread(tmp_path, "test", "一覧", "一番")
    server, script = scripted_server(app)
    release = threading.Event()
    script.script("GET", "/test/subject.txt", lambda r, f: (release.wait(5), f())[1])
    try:
        lists = BoardLists(Reader(USER_AGENT))
        ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
        now = datetime(2026, 12, 2, 1, 0, tzinfo=JST)
        seen: list[object] = []
        askers = [threading.Thread(target=lambda: seen.append(lists.current(ref, now))) for _ in range(4)]
        for asker in askers:
            asker.start()
        release.set()
        for asker in askers:
            asker.join(10)
        assert len(seen) == 4 and seen[0] is not None and all(listing is seen[0] for listing in seen)
        assert script.count("GET", "/test/subject.txt") == 1
    finally:
        server.close()
