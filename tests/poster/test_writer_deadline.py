"""A board's answer to a post that never ends (sent a byte at a time, each within the read timeout) is
cut at the answer's deadline: the post may be written by then, so it is uncertain — the thread is
read before anything is sent again — and the bot is not held by one board for ever."""

from __future__ import annotations

import pytest
import requests

import poster.writer
from poster.writer import BoardWriter
from scraper.refs import ThreadRef
from tests.scraper.trickle import TrickleServer

SUCCESS = "<html><head><title>書きこみました。</title></head><body>書きこみが終わりました。</body></html>"


def test_an_answer_to_a_post_trickling_past_its_deadline_is_uncertain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(poster.writer, "ANSWER_DEADLINE", 0.5)
    page = SUCCESS.encode("cp932") + b" " * 300
    server = TrickleServer(page, pause=0.02)  # 8 s for the whole page
    try:
        ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/1795954933/")
        outcome = BoardWriter(requests.Session(), "ボット#tea").reply(ref, "本文")
    finally:
        server.close()
    assert outcome.kind == "uncertain" and "deadline" in outcome.message
    assert server.requests == 1  # sent once: nothing is sent again before the thread is read
    assert server.sent < len(page) / 2  # cut at the deadline, not read to the end


def test_an_answer_within_its_deadline_is_read_whole() -> None:
    server = TrickleServer(SUCCESS.encode("cp932"), pause=0)
    try:
        ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/1795954933/")
        assert BoardWriter(requests.Session(), "ボット#tea").reply(ref, "本文").posted
    finally:
        server.close()
