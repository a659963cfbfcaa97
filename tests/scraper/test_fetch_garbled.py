"""Reads that are not the board's bytes — re-encoded on the way, a stray byte, a 206 that is not the
range it names, a garbled first read — are refused; the thread is read again and nothing of the
garbled answer is held."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from werkzeug.wrappers import Response

from scraper.fetch import FetchError, FetchState, fetch, make_session, strict_text
from tests.scraper.test_fetch import Board


def reencoded(target: str, source: str = "cp932"):
    """A proxy that decodes the board's answer and sends it on in another charset, headers kept."""

    def handler(request, forward) -> Response:
        answer = forward()
        answer.set_data(answer.get_data().decode(source).encode(target, errors="replace"))
        return answer

    return handler


def stray_byte(byte: bytes, at: int = -3):
    """A proxy that slips one byte into the answer (its Content-Range left as the board sent it)."""

    def handler(request, forward) -> Response:
        answer = forward()
        data = answer.get_data()
        answer.set_data(data[:at] + byte + data[at:])
        return answer

    return handler


def test_strict_text_refuses_what_is_not_the_charset() -> None:
    text = "名無しさん<><>2026/11/29(日) 21:22:13<>こんにちは<>題"
    assert strict_text(text.encode("cp932"), "cp932") == text
    assert strict_text(text.encode("utf-8"), "cp932") is None  # decodes as cp932 or not: UTF-8 it is
    assert strict_text(text.encode("euc_jp"), "euc_jp") == text
    assert strict_text(text.encode("cp932"), "euc_jp") is None
    assert strict_text(b"\x82", "cp932") is None
    assert strict_text("あ".encode("cp932") + b"\x82", "cp932", cut=True) == "あ"  # a page cut mid-character
    assert strict_text(b"ascii only", "cp932") == "ascii only"


@pytest.mark.parametrize(
    "fault",
    [reencoded("utf-8"), reencoded("euc_jp"), stray_byte(b"x"), stray_byte(b"\x81\x40")],
    ids=["re-encoded UTF-8", "re-encoded EUC-JP", "stray ASCII byte", "stray Shift-JIS character"],
)
def test_a_garbled_206_is_refused_and_the_whole_dat_read_again(board: Board, fault, caplog) -> None:
    # The EUC-JP copy has the length of the Shift-JIS one and decodes as Shift-JIS; the stray byte
    # decodes too: only the overlap and the Content-Range tell them from the board's bytes.
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("大阪の天気は晴れ dice1d6=")
    board.script.script("GET", "/test/dat/", fault)
    with caplog.at_level(logging.INFO):
        result = fetch(session, board.ref(), state)
    assert "full read" in caplog.text
    assert [(p.number, p.body) for p in result.new_posts] == [(2, "大阪の天気は晴れ dice1d6=")]
    assert result.posts[0].body == "一番"


def test_a_206_that_starts_elsewhere_than_asked_is_refused(board: Board, caplog) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("二番")

    def shifted(request, forward) -> Response:
        answer = forward()
        size = int(answer.headers["Content-Range"].rpartition("/")[2])
        start = size - len(answer.get_data())
        answer.headers["Content-Range"] = f"bytes {start + 1}-{size}/{size + 1}"
        return answer

    board.script.script("GET", "/test/dat/", shifted)
    with caplog.at_level(logging.INFO):
        result = fetch(session, board.ref(), state)
    assert "the 206 is not what it says" in caplog.text
    assert [p.body for p in result.new_posts] == ["二番"]


@pytest.mark.parametrize(
    "fault",
    [reencoded("euc_jp"), stray_byte(b"x", at=-20), stray_byte(b"\x81\x40", at=-20)],
    ids=["re-encoded EUC-JP", "stray ASCII byte", "stray Shift-JIS character"],
)
def test_a_garbled_first_read_is_not_held(board: Board, fault) -> None:
    # Held as post 1, a garbled first read made every later read "not the thread" for good.
    session = make_session()
    board.post("二番の本文")
    board.script.script("GET", "/test/dat/", fault)
    with pytest.raises(FetchError, match="disagree"):
        fetch(session, board.ref(), FetchState())
    first = fetch(session, board.ref(), FetchState())
    assert [p.body for p in first.posts] == ["一番", "二番の本文"]
    board.post("三番")
    assert [p.body for p in fetch(session, board.ref(), first.state).new_posts] == ["三番"]


def test_bytes_the_board_itself_holds_undecodable_are_taken_once_seen_twice(board: Board, caplog) -> None:
    # A damaged dat must not stop the bot: the same undecodable bytes twice are the board's own.
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    dat.write_bytes(dat.read_bytes().replace("一番".encode("cp932"), b"\x82\xff"))
    session = make_session()
    with caplog.at_level(logging.WARNING):
        first = fetch(session, board.ref(), FetchState())
    assert "the same way twice" in caplog.text and len(first.posts) == 1
    board.post("二番")
    assert [p.body for p in fetch(session, board.ref(), first.state).new_posts] == ["二番"]


@pytest.mark.parametrize(
    ("fault", "first"),
    [
        (reencoded("utf-8", "euc_jp"), False),
        (reencoded("cp932", "euc_jp"), False),
        (reencoded("utf-8", "euc_jp"), True),
        (stray_byte(b"x", at=-20), True),
    ],
    ids=["re-encoded UTF-8", "re-encoded Shift-JIS", "first read re-encoded", "first read stray byte"],
)
def test_a_garbled_rawmode_answer_is_refused(board: Board, fault, first: bool) -> None:
    session = make_session()
    ref = board.ref("shitaraba")
    board.post("二番の本文")
    state = FetchState() if first else fetch(session, ref, FetchState()).state
    board.post("三番の本文")
    board.script.script("GET", "/bbs/rawmode.cgi/", fault)
    with pytest.raises(FetchError):
        fetch(session, ref, state)
    result = fetch(session, ref, state)
    assert [p.body for p in result.new_posts] == (
        ["一番", "二番の本文", "三番の本文"] if first else ["三番の本文"]
    )


def test_a_rawmode_answer_whose_last_held_post_changed_is_refused(board: Board) -> None:
    # A stray ASCII byte decodes in any charset: the post read again shows it.
    session = make_session()
    ref = board.ref("shitaraba")
    board.post("二番の本文")
    state = fetch(session, ref, FetchState()).state
    board.post("三番")
    board.script.script("GET", "/bbs/rawmode.cgi/", stray_byte(b"x", at=30))
    with pytest.raises(FetchError, match="not the one held"):
        fetch(session, ref, state)
    assert [p.body for p in fetch(session, ref, state).new_posts] == ["三番"]


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_re_encoded_read_cgi_page_is_refused(board: Board, dialect: str) -> None:
    session = make_session()
    ref = board.ref(dialect)
    source = "cp932" if dialect == "2ch" else "euc_jp"
    state = fetch(session, ref, FetchState(), html=True).state
    board.post("二番の本文")
    prefix = "/test/read.cgi/" if dialect == "2ch" else "/bbs/read.cgi/"
    board.script.script("GET", prefix, reencoded("utf-8", source))
    with pytest.raises(FetchError):
        fetch(session, ref, state, html=True)
    assert [p.body for p in fetch(session, ref, state, html=True).new_posts] == ["二番の本文"]


def test_a_rawmode_read_from_the_start_cut_before_the_last_held_post_keeps_its_line(board: Board) -> None:
    # An empty 200 sends the read back to post 1; that answer cut short before the post held last
    # once left the wrong line held, and every later read was refused as "not the one held".
    session = make_session()
    ref = board.ref("shitaraba")
    for text in ("二番", "三番", "四番"):
        board.post(text)
    state = fetch(session, ref, FetchState()).state

    def cut(request, forward) -> Response:
        answer = forward()
        answer.set_data(answer.get_data().split(b"\n3<>")[0] + b"\n")  # posts 1 and 2 only
        return answer

    board.script.script("GET", "/bbs/rawmode.cgi/", lambda r, f: Response(b""))
    board.script.script("GET", "/bbs/rawmode.cgi/", cut)
    cut_short = fetch(session, ref, state)
    assert cut_short.outcome == "unchanged"
    board.post("五番")
    assert [p.body for p in fetch(session, ref, cut_short.state).new_posts] == ["五番"]


def test_a_held_rawmode_post_the_board_shows_otherwise_twice_is_taken_as_the_board_s(
    board: Board, caplog
) -> None:
    session = make_session()
    ref = board.ref("shitaraba")
    board.post("二番")
    state = fetch(session, ref, FetchState()).state
    wrong = replace(state, tail=state.tail.replace("二番".encode("euc_jp"), "ニ番".encode("euc_jp")))
    board.post("三番")
    with caplog.at_level(logging.WARNING):
        result = fetch(session, ref, wrong)
    assert "twice alike" in caplog.text
    assert [(p.number, p.body) for p in result.posts] == [(2, "二番"), (3, "三番")]
    assert [p.body for p in result.new_posts] == ["三番"]
