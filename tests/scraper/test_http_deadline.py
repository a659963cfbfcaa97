"""A read that never ends: a board (or whatever answers for it) sending its answer a byte at a time,
each within the read timeout, is cut at the answer's deadline — a poll never hangs on one board —
and is a read failure like any other (the thread is read again next poll, nothing taken)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import scraper.http
from scraper.fetch import USER_AGENT, FetchError, FetchState, fetch
from scraper.http import Reader, ReadFailed
from scraper.refs import ThreadRef
from tests.scraper.trickle import TrickleServer


@pytest.fixture
def trickle(monkeypatch: pytest.MonkeyPatch) -> Iterator[TrickleServer]:
    monkeypatch.setattr(scraper.http, "ANSWER_DEADLINE", 0.5)
    server = TrickleServer(b"x" * 400, pause=0.05)  # 20 s for the whole answer
    yield server
    server.close()


def test_an_answer_trickling_past_its_deadline_is_a_read_failure(trickle: TrickleServer) -> None:
    with pytest.raises(ReadFailed, match="deadline"):
        Reader(USER_AGENT).get(f"{trickle.url}/test/dat/1795954933.dat", timeout=(1, 1))
    assert trickle.sent < len(trickle.body) / 2  # cut at the deadline, not read to the end


def test_a_thread_read_that_trickles_is_a_fault_of_that_poll(trickle: TrickleServer) -> None:
    ref = ThreadRef.from_url(f"{trickle.url}/test/read.cgi/test/1795954933/")
    with pytest.raises(FetchError, match="deadline"):
        fetch(Reader(USER_AGENT), ref, FetchState())


def test_an_answer_within_its_deadline_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    server = TrickleServer(b"ok" * 5, pause=0.01)
    try:
        assert Reader(USER_AGENT).get(f"{server.url}/x").content == b"ok" * 5
    finally:
        server.close()


def test_a_read_through_a_requests_session_is_cut_at_the_deadline_too(trickle: TrickleServer) -> None:
    # a proxy in the environment, or `threadgm verify`, reads through requests
    import requests

    ref = ThreadRef.from_url(f"{trickle.url}/test/read.cgi/test/1795954933/")
    with pytest.raises(FetchError, match="deadline"):
        fetch(requests.Session(), ref, FetchState())
    assert trickle.sent < len(trickle.body) / 2


def test_a_status_line_and_headers_trickling_past_the_deadline_are_cut_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scraper.http, "ANSWER_DEADLINE", 0.5)
    server = TrickleServer(b"x" * 100, pause=0.05, slow_head=True)  # ~7 s of headers
    try:
        with pytest.raises(ReadFailed, match="deadline"):
            Reader(USER_AGENT).get(f"{server.url}/test/dat/1795954933.dat", timeout=(1, 1))
        assert server.sent < 60  # cut inside the headers
    finally:
        server.close()
