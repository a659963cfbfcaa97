"""The bot's read client (scraper.http): every incremental-read test of test_fetch passes through
it as through a requests session; a kept-alive connection the board dropped is retried once; the
network's failures are `ReadFailed` (one of `network_errors()`, so `fetch` turns them into
FetchError, without requests loaded); a redirect is answered as it is unless following is asked for
(SETTING.TXT), and then at most MAX_REDIRECTS of them."""

from __future__ import annotations

import inspect
import socket
import threading
import zlib
from collections.abc import Callable

import pytest
import requests
from werkzeug.wrappers import Response

import tests.scraper.test_fetch as fetch_tests
from scraper.fetch import USER_AGENT, FetchError, FetchState, fetch
from scraper.http import MAX_REDIRECTS, Reader, ReadFailed, make_reader, network_errors
from scraper.refs import ThreadRef
from tests.scraper.test_fetch import Board


def _board_only(function: Callable) -> bool:
    """test_fetch's tests that take just the board and read through `make_session()`."""
    return list(inspect.signature(function).parameters) == [
        "board"
    ] and "make_session()" in inspect.getsource(function)


FETCH_TESTS = [f for name, f in vars(fetch_tests).items() if name.startswith("test_") and _board_only(f)]


def test_the_fetch_tests_are_found() -> None:
    assert len(FETCH_TESTS) >= 10


@pytest.mark.parametrize("test", FETCH_TESTS, ids=lambda f: f.__name__)
def test_each_fetch_test_through_the_reader(
    test: Callable, board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    readers: list[Reader] = []

    def reader(*args: object, **kwargs: object) -> Reader:
        readers.append(Reader(USER_AGENT))
        return readers[-1]

    monkeypatch.setattr(fetch_tests, "make_session", reader)
    test(board)
    assert readers, "the test read nothing through the reader"


def test_the_reader_sends_the_bots_user_agent_and_reuses_its_connection(board: Board) -> None:
    reader = Reader("Monazilla/1.00 (test)")
    url = f"{board.ref().dat_url}"
    first, second = reader.get(url), reader.get(url)
    assert first.status_code == second.status_code == 200 and first.content == second.content
    assert board.script.seen[-1][2]["User-Agent"] == "Monazilla/1.00 (test)"
    assert sum(len(idle) for idle in reader._idle.values()) == 1  # one connection, kept for the next


def test_a_redirect_is_answered_not_followed(board: Board) -> None:
    board.script.script(
        "GET", "/test/dat/", lambda r, f: Response(b"", status=302, headers={"Location": "/kako/"})
    )
    answer = Reader(USER_AGENT).get(board.ref().dat_url)
    assert answer.status_code == 302 and answer.headers.get("location") == "/kako/"


def test_redirects_are_followed_when_asked_to_the_answer_at_their_end(board: Board) -> None:
    hops = {"/test/dat/": "/moved/one", "/moved/one": "http://127.0.0.1:{port}/moved/two"}
    port = board.server.url.rsplit(":", 1)[1]
    for path, to in hops.items():
        board.script.script(
            "GET",
            path,
            lambda r, f, to=to: Response(b"", status=302, headers={"Location": to.format(port=port)}),
        )
    board.script.script("GET", "/moved/two", lambda r, f: Response(b"BBS_TITLE=moved\n"))
    answer = Reader(USER_AGENT).get(board.ref().dat_url, allow_redirects=True)
    assert answer.status_code == 200 and answer.content == b"BBS_TITLE=moved\n"
    assert answer.url.endswith("/moved/two")


def test_a_redirect_loop_is_a_read_failure(board: Board) -> None:
    asked: list[str] = []

    def loop(request, form) -> Response:
        asked.append(request.path)
        return Response(b"", status=301, headers={"Location": request.path})

    board.script.script("GET", "/test/dat/", loop, times=None)
    with pytest.raises(ReadFailed, match="redirects"):
        Reader(USER_AGENT).get(board.ref().dat_url, allow_redirects=True)
    assert len(asked) == MAX_REDIRECTS + 1


def test_deflate_in_both_forms_is_decoded(board: Board) -> None:
    for packed in (zlib.compress(b"dat body"), zlib.compress(b"dat body")[2:-4]):  # zlib, then raw
        board.script.script(
            "GET", "/test/dat/", lambda r, f, p=packed: Response(p, headers={"Content-Encoding": "deflate"})
        )
        assert Reader(USER_AGENT).get(board.ref().dat_url).content == b"dat body"


def test_the_charset_of_a_page_is_its_encoding(board: Board) -> None:
    board.script.script(
        "GET", "/test/read.cgi/", lambda r, f: Response(b"x", content_type="text/html; charset=Shift_JIS")
    )
    assert Reader(USER_AGENT).get(board.ref().read_url).encoding == "Shift_JIS"


class _DroppingServer:
    """Answers each connection's first request as if keeping it alive, then closes it."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(4096)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")

    def close(self) -> None:
        self.listener.close()


def test_a_kept_alive_connection_the_board_dropped_is_tried_again_on_a_new_one() -> None:
    server = _DroppingServer()
    try:
        reader = Reader(USER_AGENT)
        url = f"http://127.0.0.1:{server.port}/test/dat/1.dat"
        assert reader.get(url).content == b"ok"
        assert reader.get(url).content == b"ok"  # the kept one was closed by then
        assert server.connections == 2
    finally:
        server.close()


def test_a_board_that_cannot_be_reached_is_a_read_failure() -> None:
    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        port = placeholder.getsockname()[1]
    with pytest.raises(ReadFailed) as raised:
        Reader(USER_AGENT).get(f"http://127.0.0.1:{port}/test/dat/1.dat", timeout=(1, 1))
    assert isinstance(raised.value, network_errors())
    ref = ThreadRef.from_url(f"http://127.0.0.1:{port}/test/read.cgi/bench/1234567890/")
    with pytest.raises(FetchError, match="ReadFailed"):
        fetch(Reader(USER_AGENT), ref, FetchState())


def test_a_proxy_in_the_environment_keeps_reads_on_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    session = requests.Session()
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    assert make_reader(USER_AGENT, fallback=session) is session
    monkeypatch.delenv("HTTP_PROXY")
    for name in ("http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert isinstance(make_reader(USER_AGENT, fallback=session), Reader)
