"""The board and the game page keep answering while a crowd holds connections open: 1,000 idle ones
and some that trickle a request (waitress's default limit of 100 let 98 stop the board, and then the
bot could not read its own board); a connection that stays idle is closed."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from bench.bench_crowd import IDLE, SLOW, crowd
from board.admin import open_thread
from board.server import BoardServer, make_app, raise_open_files_limit
from store.db import Store
from tests.board.test_http import UA
from web.server import GamePage


@pytest.fixture(autouse=True)
def enough_files() -> None:
    """The crowd's sockets and the server's ends of them live in this one process."""
    resource = pytest.importorskip("resource", reason="no resource module: the open-files limit is unknown")
    needed = 2 * (IDLE + SLOW) + 256
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"a crowd needs {needed} open files in this process; the hard limit here is {hard}")
    raise_open_files_limit(needed)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[BoardServer, str]]:
    app = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    key = open_thread(tmp_path, "test", "満員", "一番")
    with BoardServer(app) as running:
        yield running, key


def test_a_post_and_a_poll_are_answered_with_a_crowd_connected(board) -> None:
    server, key = board
    with crowd(server.port):
        session = requests.Session()
        form = {"bbs": "test", "key": key, "FROM": "", "mail": "", "MESSAGE": "満員でも書ける"}
        body = "&".join(f"{k}={requests.utils.quote(v.encode('cp932'))}" for k, v in form.items())
        headers = {**UA, "Content-Type": "application/x-www-form-urlencoded"}
        for _ in range(2):  # the cookie page, then 書きこみました
            page = session.post(f"{server.url}/test/bbs.cgi", data=body, headers=headers, timeout=30)
        assert "書きこみました" in page.content.decode("cp932")
        poll = requests.get(f"{server.url}/test/dat/{key}.dat", headers=UA, timeout=30)
        assert poll.status_code == 200 and "満員でも書ける".encode("cp932") in poll.content
        assert requests.get(f"{server.url}/test/subject.txt", headers=UA, timeout=30).status_code == 200


def test_the_game_page_answers_with_a_crowd_connected(tmp_path: Path) -> None:
    store = Store(tmp_path / "bot.sqlite")
    page = GamePage(store, []).start()
    try:
        with crowd(page.port):
            assert requests.get(f"{page.url}/static/page.js", timeout=30).status_code == 200
            assert requests.get(f"{page.url}/", timeout=30).status_code == 200
    finally:
        page.close()
        store.close()


def test_an_idle_connection_is_closed(tmp_path: Path) -> None:
    app = make_app(tmp_path, ["test"])
    with BoardServer(app, channel_timeout=1) as server:
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        slow.sendall(b"GET / HTTP/1.1\r\n")  # and never the rest
        try:
            started = time.monotonic()
            assert idle.recv(1) == b""  # the server closed it
            assert slow.recv(1) == b""
            assert time.monotonic() - started < 8
        finally:
            idle.close()
            slow.close()
