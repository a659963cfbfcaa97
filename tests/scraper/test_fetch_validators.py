"""A 304 is the board's word that nothing changed, and a board can give it wrongly: its dat's time
went back (a restored file, a clock set back) and If-Modified-Since with the time held answers 304
while posts are added, or a cache in front of it answers 304 for a dat that grew. After
CONDITIONAL_STREAK 304s in a row the dat is asked for once without the validator, and an answer
whose Last-Modified is older than the one held drops it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

import scraper.fetch
from scraper.fetch import FetchError, FetchState, fetch, make_session
from tests.scraper.test_fetch import Board


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Board]:
    monkeypatch.setattr(scraper.fetch, "CONDITIONAL_STREAK", 3)
    monkeypatch.setattr(scraper.fetch, "_unchanged", {})
    running = Board(tmp_path)
    yield running
    running.server.close()


def _polls(board: Board, state: FetchState, times: int) -> tuple[list[str], FetchState]:
    session, bodies = make_session(), []
    for _ in range(times):
        result = fetch(session, board.ref(), state)
        bodies += [post.body for post in result.new_posts]
        state = result.state
    return bodies, state


def test_a_dat_whose_time_went_back_is_read_within_the_streak(board: Board) -> None:
    state = fetch(make_session(), board.ref(), FetchState()).state
    assert state.last_modified is not None
    board.post("二番")
    dat = board.data / "test" / "dat" / f"{board.key}.dat"
    os.utime(dat, (dat.stat().st_mtime - 3600, dat.stat().st_mtime - 3600))  # the file's time went back
    bodies, state = _polls(board, state, 3)
    assert bodies == []  # the board itself answers 304 to the time held
    bodies, state = _polls(board, state, 1)
    assert bodies == ["二番"]  # asked without the validator, once the streak is over
    board.post("三番")
    os.utime(dat, (dat.stat().st_mtime - 3000, dat.stat().st_mtime - 3000))  # still before the old time
    assert _polls(board, state, 1)[0] == ["三番"]  # the validator now is the board's own, older one


def test_a_cache_answering_304_for_a_dat_that_grew_is_found_out(board: Board) -> None:
    state = fetch(make_session(), board.ref(), FetchState()).state
    board.post("二番")
    lying = board.script.script(
        "GET",
        "/test/dat/",
        lambda r, f: Response(status=304),
        when=lambda r: "If-Modified-Since" in r.headers,
        times=None,
    )
    bodies, state = _polls(board, state, 4)
    assert bodies == ["二番"] and lying.used == 3


def test_a_304_to_a_read_without_a_validator_is_a_fault(board: Board) -> None:
    board.script.script("GET", "/test/dat/", lambda r, f: Response(status=304), times=None)
    held = FetchState(size=10, last_number=1, tail=b"\n")
    with pytest.raises(FetchError, match="304"):
        fetch(make_session(), board.ref(), held)
