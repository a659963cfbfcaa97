"""A thread moved to its board's archive (過去ログ / dat落ち): 5ch redirects its dat to the oyster or
kako copy, したらば sends its pages to read_archive.cgi. A redirect to the thread's own archived copy on
the board's host is a sign it is gone (proof is `scraper.gone`'s: the thread list too, twice apart);
one anywhere else — another thread's copy, another host, a portal — is a fault, read again."""

from __future__ import annotations

import pytest
from werkzeug.wrappers import Response

from scraper.fetch import FetchError, FetchState, fetch, make_session
from tests.scraper.test_fetch import Board


def _redirect(where: str):
    return lambda request, forward: Response(status=302, headers={"Location": where})


def _archives(board: Board) -> dict[str, str]:
    key = board.key
    return {
        "5ch oyster": f"/test/oyster/{key[:4]}/{key}.dat",
        "2ch kako": f"/test/kako/{key[:4]}/{key[:5]}/{key}.dat.gz",
        "absolute, same host": f"{board.server.url}/test/oyster/{key[:4]}/{key}.dat",
    }


@pytest.mark.parametrize("which", ["5ch oyster", "2ch kako", "absolute, same host"])
def test_a_dat_redirected_to_its_own_archived_copy_is_a_sign_it_is_gone(board: Board, which: str) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    board.script.script("GET", "/test/dat/", _redirect(_archives(board)[which]))
    result = fetch(session, board.ref(), state)
    assert result.outcome == "gone" and "過去ログ" in result.note and result.posts == []
    assert result.state == state  # nothing held changes on a sign


def test_a_shitaraba_thread_sent_to_read_archive_is_a_sign_it_is_gone(board: Board) -> None:
    session = make_session()
    ref = board.ref("shitaraba")
    state = fetch(session, ref, FetchState()).state
    archive = f"/bbs/read_archive.cgi/{ref.board}/{ref.key}/"
    for prefix, html in (("/bbs/rawmode.cgi/", False), ("/bbs/read.cgi/", True)):
        board.script.script("GET", prefix, _redirect(archive))
        assert fetch(session, ref, state, html=html).outcome == "gone", prefix


@pytest.mark.parametrize(
    "where",
    [
        "/test/oyster/1796/1796000000.dat",  # another thread's copy
        "http://archive.example/test/oyster/{k4}/{key}.dat",  # another host
        "/test/oyster/{k4}/{key}.html",
        "/other/oyster/{k4}/{key}.dat",  # another board
        "/bbs/read_archive.cgi/local/test/{key}/",  # したらば's shape, for a 2ch thread
    ],
)
def test_any_other_redirect_of_a_read_is_a_fault(board: Board, where: str) -> None:
    session = make_session()
    state = fetch(session, board.ref(), FetchState()).state
    where = where.format(key=board.key, k4=board.key[:4])
    board.script.script("GET", "/test/dat/", _redirect(where))
    with pytest.raises(FetchError, match="redirected the read"):
        fetch(session, board.ref(), state)
