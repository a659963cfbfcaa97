"""A dat the board itself holds damaged — a line of 4 or 6 fields, the same bytes on every read — is
the thread as the board serves it: the good posts around a bad line are read, before and after it,
and the bad line is a post of its own (its number is its line's). An answer damaged on the way (a
proxy's) is not: a whole read shows otherwise, and nothing of the lie is held."""

from __future__ import annotations

import logging

import pytest
from werkzeug.wrappers import Response

from scraper.fetch import FetchError, FetchState, fetch, make_session
from tests.scraper.test_fetch import Board, _range

FOUR = "名無し<><>2026/11/29(日) 21:22:13 ID:abcdEFGH<>四つの欄\n"
SIX = "名無し<><>2026/11/29(日) 21:22:14 ID:abcdEFGH<>六つの欄<><>余り\n"


def _append(board: Board, text: str) -> None:
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    with dat.open("ab") as file:
        file.write(text.encode("cp932"))
    board._age()


@pytest.mark.parametrize("bad", [FOUR, SIX], ids=["4 fields", "6 fields"])
def test_a_line_the_board_holds_damaged_is_read_on_a_first_read(
    board: Board, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    _append(board, bad)
    board.post("三番")
    with caplog.at_level(logging.WARNING, logger="scraper.fetch"):
        result = fetch(make_session(), board.ref(), FetchState())
    assert [post.number for post in result.posts] == [1, 2, 3]
    assert result.posts[1].body in ("四つの欄", "六つの欄") and result.posts[2].body == "三番"
    assert "line 2" in caplog.text and "the board's" in caplog.text


@pytest.mark.parametrize("bad", [FOUR, SIX], ids=["4 fields", "6 fields"])
def test_a_damaged_line_in_a_thread_already_held_does_not_stop_its_reading(board: Board, bad: str) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    _append(board, bad)
    board.post("三番")
    result = fetch(session, board.ref(), state)
    assert [(post.number, post.body) for post in result.new_posts][1:] == [(3, "三番")]
    board.post("四番")  # and the reads after it go on from there, incrementally
    later = fetch(session, board.ref(), result.state)
    assert [(post.number, post.body) for post in later.new_posts] == [(4, "四番")]
    assert later.outcome == "new"


def test_a_damaged_line_a_proxy_adds_to_one_answer_is_not_taken(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    dat = (board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()
    start = len(dat) - len(state.tail)
    board.script.script("GET", "/test/dat/", lambda r, f: _range(dat + FOUR.encode("cp932"), start))
    assert fetch(session, board.ref(), state).new_posts == []  # the whole dat shows no such line


def test_a_damaged_first_line_is_still_no_dat(board: Board) -> None:
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    lines = dat.read_bytes().split(b"\n")
    dat.write_bytes(b"\n".join([lines[0].rpartition(b"<>")[0], *lines[1:]]))  # line 1 of 4 fields
    board._age()
    with pytest.raises(FetchError, match="not the dat of the thread"):
        fetch(make_session(), board.ref(), FetchState())


def test_a_page_that_is_no_dat_is_refused_however_often_it_comes(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    page = b"<html><body>\nmaintenance\n</body></html>\n"
    board.script.script("GET", "/test/dat/", lambda r, f: Response(page), times=None)
    with pytest.raises(FetchError, match="not the dat of the thread"):
        fetch(session, board.ref(), state)


def test_a_first_post_deleted_with_its_title_is_still_the_thread(board: Board) -> None:
    # 5ch's あぼーん of post 1 may leave the title field empty: the thread is still read
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    lines = dat.read_bytes().split(b"\n")
    dat.write_bytes(b"\n".join(["あぼーん<>あぼーん<>あぼーん<>あぼーん<>".encode("cp932"), *lines[1:]]))
    board._age()
    board.post("二番")
    result = fetch(session, board.ref(), state)
    assert result.posts[0].deleted and [post.body for post in result.new_posts] == ["二番"]
