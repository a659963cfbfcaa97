"""Answers that lie about their range or their coding, and posts no board should hold but some do:
each is a fault of one poll or read as the board holds it — never a post lost, never a post made up."""

from __future__ import annotations

import gzip

import pytest
from werkzeug.wrappers import Response

from scraper.fetch import FetchError, FetchState, fetch, make_session
from scraper.http import Reader
from tests.scraper.test_fetch import Board

USER_AGENT = "Monazilla/1.00 (threadgm-test)"


def _dat(board: Board) -> bytes:
    return (board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()


def test_a_416_for_a_range_the_dat_holds_is_no_answer_to_believe(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("二番")
    size = len(_dat(board))
    board.script.script(
        "GET", "/test/dat/", lambda r, f: Response(status=416, headers={"Content-Range": f"bytes */{size}"})
    )
    result = fetch(session, board.ref(), state)
    assert [post.body for post in result.new_posts] == ["二番"]  # the whole dat read instead


def test_a_206_whose_range_ends_past_the_size_it_names_is_refused(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("二番")
    data = _dat(board)
    start = state.size - len(state.tail)  # the reader asks from the last line held
    part = data[start:]
    lying = {"Content-Range": f"bytes {start}-{start + len(part) - 1}/{start + 1}"}
    board.script.script("GET", "/test/dat/", lambda r, f: Response(part, status=206, headers=lying))
    result = fetch(session, board.ref(), state)
    assert result.outcome == "full" and "not what it says" in result.note
    assert [post.body for post in result.new_posts] == ["二番"]


@pytest.mark.parametrize("through", ["reader", "requests"])
def test_a_broken_gzip_body_is_a_fault_and_the_next_read_is_whole(board: Board, through: str) -> None:
    session = Reader(USER_AGENT) if through == "reader" else make_session()
    broken = gzip.compress(_dat(board))[:-12] + b"\x00" * 12  # its checksum and length wrong
    board.script.script(
        "GET", "/test/dat/", lambda r, f: Response(broken, headers={"Content-Encoding": "gzip"})
    )
    with pytest.raises(FetchError):
        fetch(session, board.ref(), FetchState())
    assert [post.body for post in fetch(session, board.ref(), FetchState()).posts] == ["一番"]


def test_a_post_a_megabyte_long_and_one_with_nul_bytes_are_read_as_held(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    long_body = "長" * (1 << 19)  # a megabyte of Shift-JIS
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    with dat.open("ab") as file:
        file.write(f"名無し<><>2026/11/29(日) 21:22:13 ID:abcdEFGH<>{long_body}<>\n".encode("cp932"))
        file.write("名\x00無し<><>2026/11/29(日) 21:22:14 ID:abcdEFGH<>前\x00後<>\n".encode("cp932"))
        file.write("名無し<><>2026/11/29(日) 21:22:15 ID:abcdEFGH<>四番<>\n".encode("cp932"))
    board._age()
    result = fetch(session, board.ref(), state)
    assert [len(post.body) for post in result.new_posts[:1]] == [len(long_body)]
    assert [(post.name, post.body) for post in result.new_posts[1:]] == [
        ("名\x00無し", "前\x00後"),
        ("名無し", "四番"),
    ]


@pytest.mark.parametrize("through", ["reader", "requests"])
@pytest.mark.parametrize("shape", ["gzip bomb", "endless body"])
def test_an_answer_bigger_than_any_thread_is_a_fault_not_the_bot_s_memory(
    board: Board, monkeypatch: pytest.MonkeyPatch, through: str, shape: str
) -> None:
    import scraper.http

    monkeypatch.setattr(scraper.http, "MAX_ANSWER", 1 << 20)
    session = Reader(USER_AGENT) if through == "reader" else make_session()
    if shape == "gzip bomb":  # 8 MiB of zeros in a few KiB
        answer = Response(gzip.compress(b"\0" * (8 << 20)), headers={"Content-Encoding": "gzip"})
    else:
        answer = Response(b"x" * (3 << 20))
    board.script.script("GET", "/test/dat/", lambda r, f: answer)
    with pytest.raises(FetchError, match="more than"):
        fetch(session, board.ref(), FetchState())
    assert [post.body for post in fetch(session, board.ref(), FetchState()).posts] == ["一番"]
