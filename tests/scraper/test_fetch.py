"""Incremental reads against the local board over HTTP, and against scripted faults."""

from __future__ import annotations

import gzip
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

from board.admin import delete_post, open_thread
from board.posting import Client, WriteForm
from board.server import make_app
from scraper.fetch import FetchError, FetchState, fetch, first_post_identity, make_session
from scraper.refs import ThreadRef
from tests.conftest import shared_path
from tests.scripted import ScriptedApp, scripted_server


class Board:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.app = make_app(data, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
        self.server, self.script = scripted_server(self.app)
        self.key = open_thread(data, "test", "取得テスト", "一番")
        self._mtime = time.time() - 100
        self._age()

    def _age(self) -> None:
        """Each change gets its own whole second in the past, so If-Modified-Since is usable."""
        self._mtime += 2
        dat = self.data / "test" / "dat" / f"{self.key}.dat"
        os.utime(dat, (self._mtime, self._mtime))

    def post(self, message: str) -> None:
        client = Client("192.0.2.7", {"NAME": "", "MAIL": ""})
        outcome = self.app.posting.write(WriteForm("test", self.key, "", "", message), client)
        assert not hasattr(outcome, "code"), outcome
        self._age()

    def ref(self, dialect: str = "2ch") -> ThreadRef:
        if dialect == "2ch":
            return ThreadRef.from_url(f"{self.server.url}/test/read.cgi/test/{self.key}/")
        return ThreadRef.from_url(f"{self.server.url}/bbs/read.cgi/local/test/{self.key}/")


def test_first_read_then_idle_then_new_posts(board: Board) -> None:
    session = make_session()
    first = fetch(session, board.ref(), FetchState())
    assert first.outcome == "new" and [p.body for p in first.new_posts] == ["一番"]
    assert first.state.size == len((board.data / "test" / "dat" / f"{board.key}.dat").read_bytes())
    assert first.state.last_modified is not None

    idle = fetch(session, board.ref(), first.state)
    assert idle.outcome == "unchanged" and idle.transferred == 0 and idle.posts == []
    # the last line held is asked for again: the answer must show it as held
    assert board.script.seen[-1][2]["Range"] == f"bytes={first.state.size - len(first.state.tail)}-"

    board.post("二番")
    board.post("三番")
    grown = fetch(session, board.ref(), idle.state)
    assert grown.outcome == "new" and [(p.number, p.body) for p in grown.new_posts] == [
        (2, "二番"),
        (3, "三番"),
    ]
    assert grown.transferred == grown.state.size - first.state.size + len(first.state.tail)


def test_gzip_only_for_whole_reads(board: Board) -> None:
    """A board that compresses what it may: the whole dat comes gzipped and is decoded; a Range asks
    for the file as stored, since a range of a compressed answer counts compressed bytes."""

    def compress(request, forward) -> Response:
        answer = forward()
        if "gzip" in request.headers.get("Accept-Encoding", "") and answer.status_code == 200:
            answer.set_data(gzip.compress(answer.get_data()))
            answer.headers["Content-Encoding"] = "gzip"
        return answer

    board.script.script("GET", "/test/dat/", compress, times=None)
    session = make_session()
    first = fetch(session, board.ref(), FetchState())
    assert [p.body for p in first.new_posts] == ["一番"]
    assert "gzip" in board.script.seen[-1][2]["Accept-Encoding"]
    board.post("二番")
    grown = fetch(session, board.ref(), first.state)
    assert [p.body for p in grown.new_posts] == ["二番"]
    assert board.script.seen[-1][2]["Accept-Encoding"] == "identity"
    assert grown.state.size == len((board.data / "test" / "dat" / f"{board.key}.dat").read_bytes())


def test_a_read_cut_inside_a_post_is_not_validated(board: Board) -> None:
    # The file did not change after the cut read: with its Last-Modified kept, If-Modified-Since would
    # answer 304 and the held-back post would wait for the next one.
    session = make_session()
    first = fetch(session, board.ref(), FetchState())
    board.post("二番")

    def cut(request, forward):  # a dat still being written: its last line is not whole yet
        data = _dat(board)
        start = first.state.size - len(first.state.tail)
        return _range(data, start, len(data) - 10, total=len(data) - 10)

    board.script.script("GET", "/test/dat/", cut)
    partial = fetch(session, board.ref(), first.state)
    assert not partial.complete and partial.new_posts == [] and partial.state.last_modified is None
    rest = fetch(session, board.ref(), partial.state)
    assert rest.complete and [p.body for p in rest.new_posts] == ["二番"]


def test_a_deletion_is_detected_and_the_thread_read_again(board: Board) -> None:
    session = make_session()
    board.post("消される" * 30)
    state = fetch(session, board.ref(), FetchState()).state
    delete_post(board.data, "test", board.key, 2)
    board._age()
    again = fetch(session, board.ref(), state)
    assert again.outcome == "full" and ("416" in again.note or "no longer matches" in again.note)
    assert [p.deleted for p in again.posts] == [False, True]
    assert again.new_posts == []

    board.post("四番目の前に")
    delete_post(board.data, "test", board.key, 1)  # same size class: the byte before our end moves
    board._age()
    after = fetch(session, board.ref(), again.state)
    assert after.outcome == "full"
    assert [p.number for p in after.new_posts] == [3]


def _dat(board: Board) -> bytes:
    return (board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()


def _range(data: bytes, start: int, end: int | None = None, total: int | None = None) -> Response:
    """A static server's 206 for `data[start:end]` of a file of `total` bytes (all of `data`)."""
    part = data[start:end]
    total = len(data) if total is None else total
    return Response(
        part, status=206, headers={"Content-Range": f"bytes {start}-{start + len(part) - 1}/{total}"}
    )


def test_apache_style_206_with_only_the_overlap_means_nothing_new(board: Board) -> None:
    # Apache answers a Range on an unchanged file with If-Modified-Since by the bytes asked for
    # (the captured exchange: 206, Content-Range bytes 538-538/539), not 304.
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    for overlap in (state.tail, b"\n"):  # the last line held; just its newline after a restart
        held = replace(state, tail=overlap if overlap != b"\n" else b"")
        start = state.size - len(overlap)
        board.script.script("GET", "/test/dat/", lambda r, f, start=start: _range(_dat(board), start))
        result = fetch(session, board.ref(), held)
        assert result.outcome == "unchanged" and result.state.size == state.size
        assert board.script.seen[-1][2]["Range"] == f"bytes={start}-"


def test_captured_apache_semantics_match_what_the_reader_expects() -> None:
    semantics = shared_path("fixtures", "ex0ch", "http_semantics.txt").read_text()
    unchanged = semantics.split("## range size-1 + IMS (unchanged)")[1].split("##")[0]
    assert "status 206" in unchanged and "Content-Range: bytes 538-538/539" in unchanged
    dat = shared_path("fixtures", "ex0ch", "1795954933.dat").read_bytes()
    assert len(dat) == 539 and dat[538:] == b"\n"


def test_a_board_that_ignores_range_sends_the_whole_dat(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("二番")

    board.script.script(
        "GET",
        "/test/dat/",
        lambda r, f: Response((board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()),
    )
    result = fetch(session, board.ref(), state)
    assert [p.number for p in result.new_posts] == [2]
    assert result.state.last_number == 2


def test_a_cut_connection_keeps_the_partial_line_for_next_time(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("途中で切れる長いレス")

    def cut(request, forward):
        data = _dat(board)
        return _range(data, state.size - len(state.tail), len(data) - 10, total=len(data) - 10)

    board.script.script("GET", "/test/dat/", cut)
    partial = fetch(session, board.ref(), state)
    assert partial.outcome == "unchanged" and partial.state.size == state.size
    complete = fetch(session, board.ref(), partial.state)
    assert [p.body for p in complete.new_posts] == ["途中で切れる長いレス"]


def test_server_errors_and_timeouts_raise_fetch_errors_and_lose_nothing(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.post("二番")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"busy", status=503))
    with pytest.raises(FetchError, match="503"):
        fetch(session, board.ref(), state)

    release = threading.Event()
    board.script.script("GET", "/test/dat/", lambda r, f: (release.wait(5), f())[1])
    import scraper.fetch as fetch_module

    original = fetch_module.TIMEOUT
    fetch_module.TIMEOUT = (1, 0.5)
    try:
        with pytest.raises(FetchError, match="Timeout"):
            fetch(session, board.ref(), state)
    finally:
        fetch_module.TIMEOUT = original
        release.set()
    after = fetch(session, board.ref(), state)
    assert [p.body for p in after.new_posts] == ["二番"]


def test_a_missing_dat_is_a_sign_of_a_gone_thread_and_a_redirect_is_a_fault(board: Board) -> None:
    # A redirect is what a portal or a login wall answers: taken for dat落ち, one stopped the game.
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.script.script(
        "GET", "/test/dat/", lambda r, f: Response(status=302, headers={"Location": "/kako/x.dat"})
    )
    with pytest.raises(FetchError, match="redirected the read"):
        fetch(session, board.ref(), state)
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"gone", status=410))
    assert fetch(session, board.ref(), state).outcome == "gone"
    gone = ThreadRef.from_url(f"{board.server.url}/test/read.cgi/test/1111111111/")
    assert fetch(session, gone, FetchState()).outcome == "gone"  # the local board's 404
    for dialect, html in (("2ch", True), ("shitaraba", False), ("shitaraba", True)):
        missing = ThreadRef.from_url(board.ref(dialect).read_url.replace(board.key, "1111111111"))
        assert fetch(session, missing, FetchState(), html=html).outcome == "gone", (dialect, html)


@pytest.mark.parametrize("html", [False, True], ids=["dat", "read.cgi"])
def test_the_board_s_own_page_for_a_missing_thread_is_a_sign_it_is_gone(board: Board, html: bool) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState(), html=html).state
    page = (
        "<html><head><title>ＥＲＲＯＲ！</title></head><body>ERROR:スレッドが存在しません。</body></html>\n"
    )
    prefix = "/test/read.cgi/" if html else "/test/dat/"
    board.script.script("GET", prefix, lambda r, f: Response(page.encode("cp932")), times=2)
    result = fetch(session, board.ref(), state, html=html)
    assert result.outcome == "gone" and "スレッドが存在しません" in result.note


def test_rawmode_reads_from_the_next_number_and_skips_gaps(board: Board) -> None:
    session = make_session()
    ref = board.ref("shitaraba")
    first = fetch(session, ref, FetchState())
    assert [p.number for p in first.new_posts] == [1]
    for text in ("二番", "三番", "四番"):
        board.post(text)
    delete_post(board.data, "test", board.key, 3)
    board._age()
    second = fetch(session, ref, first.state)
    assert [(p.number, p.body) for p in second.new_posts] == [(2, "二番"), (4, "四番")]
    assert board.script.seen[-1][1].endswith(f"/{board.key}/1-")  # from the last held: never empty
    assert fetch(session, ref, second.state).outcome == "unchanged"


def test_html_reader_on_the_local_board(board: Board) -> None:
    session = make_session()
    board.post("HTML経由")
    result = fetch(session, board.ref(), FetchState(), html=True)
    assert [(p.number, p.body) for p in result.new_posts] == [(1, "一番"), (2, "HTML経由")]
    board.post("次")
    more = fetch(session, board.ref(), result.state, html=True)
    assert [p.body for p in more.new_posts] == ["次"]


def test_last_modified_within_a_second_of_the_answer_is_not_used(board: Board) -> None:
    # The answer's Date is set to its own Last-Modified (the same second), whatever the clock says:
    # a file written in the second of the answer may still change within it, so it is no validator.
    def same_second(request, forward):
        answer = forward()
        answer.headers["Date"] = answer.headers["Last-Modified"]
        return answer

    board.script.script("GET", "/test/dat/", same_second)
    assert fetch(make_session(), board.ref(), FetchState()).state.last_modified is None
    trusted = fetch(make_session(), board.ref(), FetchState())  # the board's own Date: seconds later
    assert trusted.state.last_modified is not None


def test_scripted_app_forwards_untouched_requests(board: Board) -> None:
    assert isinstance(board.script, ScriptedApp)
    session = make_session()
    fetch(session, board.ref(), FetchState())
    assert board.script.count("GET", "/test/dat/") == 2  # a first read is confirmed by a second


MAINTENANCE = (
    "<html>\n<head><title>メンテナンス中</title></head>\n<body>\nただいまメンテナンス中です。\n"
    "しばらくお待ちください。\n</body>\n</html>\n"
).encode("cp932")
PORTAL = b"<!DOCTYPE html>\n<html><body><form action='/login'>Wi-Fi login</form></body></html>\n"


@pytest.mark.parametrize("page", [MAINTENANCE, PORTAL, b""], ids=["maintenance", "portal", "empty"])
@pytest.mark.parametrize("held", [False, True], ids=["first read", "later read"])
def test_a_200_that_is_not_the_dat_is_a_fault(board: Board, page: bytes, held: bool) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state if held else FetchState()
    board.post("二番")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(page, content_type="text/html"))
    with pytest.raises(FetchError, match="not the dat of the thread"):
        fetch(session, board.ref(), state)
    after = fetch(session, board.ref(), state)  # nothing was taken from the lie
    assert [p.body for p in after.new_posts] == (["二番"] if held else ["一番", "二番"])


def test_a_dat_whose_lines_are_not_dat_lines_is_a_fault(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    dat = (board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()
    untitled = dat.replace("取得テスト".encode("cp932"), b"")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(untitled), times=None)
    with pytest.raises(FetchError, match="not the dat of the thread"):
        fetch(session, board.ref(), state)
    board.script.rules.clear()
    # A line that is no dat line in one answer only (not in the dat the board serves next) is a lie:
    # the whole dat is read again, and nothing of the answer is taken (tests/scraper/test_fetch_damaged.py).
    four_fields = dat + "名無し<><>2026/11/29(日) 21:22:13<>本文\n".encode("cp932")
    start = len(dat) - len(state.tail)
    for wrong in (Response(four_fields), _range(dat + b"<p>\n", start)):
        board.script.script("GET", "/test/dat/", lambda r, f, wrong=wrong: wrong)
        assert fetch(session, board.ref(), state).new_posts == []


def test_a_full_read_must_start_with_the_first_post_already_seen(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    assert state.first_post == first_post_identity(fetch(session, board.ref(), FetchState()).posts[0])
    other = open_thread(board.data, "test", "別のスレ", "別のスレの一番")
    other_dat = (board.data / "test" / "dat" / f"{other}.dat").read_bytes()
    board.script.script("GET", "/test/dat/", lambda r, f: Response(other_dat))
    with pytest.raises(FetchError, match="first post"):
        fetch(session, board.ref(), state)
    delete_post(board.data, "test", board.key, 1)  # a deleted first post is still this thread's
    board._age()
    assert fetch(session, board.ref(), state).posts[0].deleted


@pytest.mark.parametrize(
    "page",
    [
        MAINTENANCE,
        "2<>名無し<><>2016/05/30(月) 02:13:04<>二<><>a\n1<>名無し<><>2016/05/30(月) 02:13:04<>一<>題<>a\n".encode(
            "euc_jp"
        ),
        "2<>名無し<><>2016/05/30(月) 02:13:04<>二<><>a\nメンテナンス中\n".encode("euc_jp"),
    ],
    ids=["html", "falling numbers", "a line without a number"],
)
def test_a_rawmode_answer_must_be_numbered_posts_in_order(board: Board, page: bytes) -> None:
    session = make_session()
    state = fetch(session, board.ref("shitaraba"), FetchState()).state
    board.post("二番")
    board.script.script("GET", "/bbs/rawmode.cgi/", lambda r, f: Response(page))
    with pytest.raises(FetchError, match="not the rawmode answer of the thread"):
        fetch(session, board.ref("shitaraba"), state)
    # An empty answer too: the read starts at the last post held, so the thread's answer shows it.
    board.script.script("GET", "/bbs/rawmode.cgi/", lambda r, f: Response(b""))
    with pytest.raises(FetchError, match="not the rawmode answer of the thread"):
        fetch(session, board.ref("shitaraba"), state)
    assert [p.body for p in fetch(session, board.ref("shitaraba"), state).new_posts] == ["二番"]


def test_a_rawmode_read_whose_last_held_post_was_deleted_reads_from_the_start(board: Board) -> None:
    session = make_session()
    board.post("二番")
    state = fetch(session, board.ref("shitaraba"), FetchState()).state
    delete_post(board.data, "test", board.key, 2)
    again = fetch(session, board.ref("shitaraba"), state)
    assert again.outcome == "unchanged" and board.script.seen[-1][1].endswith("/1-")
    board.post("三番")
    assert [p.number for p in fetch(session, board.ref("shitaraba"), state).new_posts] == [3]


def test_a_read_cgi_page_without_the_thread_s_posts_is_a_fault(board: Board) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState(), html=True).state
    board.post("二番")
    page = "<html><body><div class='post'><span class='number'>{}</span><div class='message'>x</div></div>"
    twice = (page.format(2) + page.format(2)[12:] + "</html>").encode("cp932")
    for wrong, requests_made in ((MAINTENANCE, 2), (twice, 1)):  # a page without posts: the whole page too
        board.script.script(
            "GET", "/test/read.cgi/", lambda r, f, wrong=wrong: Response(wrong), times=requests_made
        )
        with pytest.raises(FetchError, match="not a page of the thread"):
            fetch(session, board.ref(), state, html=True)
    assert [p.body for p in fetch(session, board.ref(), state, html=True).new_posts] == ["二番"]


@pytest.mark.parametrize("dialect", ["2ch read.cgi", "shitaraba"])
def test_a_page_of_another_thread_is_a_fault(board: Board, dialect: str) -> None:
    html = dialect == "2ch read.cgi"
    ref = board.ref("2ch" if html else "shitaraba")
    session = make_session()
    first = fetch(session, ref, FetchState(), html=html)
    state = replace(first.state, first_post=first_post_identity(first.posts[0]))
    assert fetch(session, ref, state, html=html).outcome == "unchanged"  # the thread's own page passes
    other = open_thread(board.data, "test", "別のスレ", "別のスレの一番")
    # what a confused proxy or a moved thread answers: another thread's page, with status 200
    if html:
        page = session.get(f"{board.server.url}/test/read.cgi/test/{other}/").content
    else:
        page = session.get(f"{board.server.url}/bbs/rawmode.cgi/local/test/{other}/1-").content
    prefix = "/test/read.cgi/" if html else "/bbs/rawmode.cgi/"
    board.script.script("GET", prefix, lambda r, f: Response(page, content_type="text/html"), times=2)
    with pytest.raises(FetchError, match="first post is not the one held"):
        fetch(session, ref, state, html=html)


def test_a_shitaraba_page_whose_first_post_was_deleted_still_reads(board: Board) -> None:
    # したらば's read.cgi leaves a deleted post 1 out: a quiet thread's `N-` page then shows no post,
    # and only the whole page tells it from a page that is not the thread's.
    session = make_session()
    ref = board.ref("shitaraba")
    board.post("二番")
    state = fetch(session, ref, FetchState(), html=True).state
    delete_post(board.data, "test", board.key, 1)
    assert fetch(session, ref, state, html=True).outcome == "unchanged"
    board.post("三番")
    assert [p.body for p in fetch(session, ref, state, html=True).new_posts] == ["三番"]
