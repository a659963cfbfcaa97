"""A 2ch-compatible board installed in a subdirectory (`https://host/bbs/test/read.cgi/…`, as an
ex0ch put under a folder of a shared host is): everything threadgm asks of it stays in the folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from board.admin import open_thread
from board.server import BoardServer, make_app
from poster.writer import BoardWriter
from scraper.fetch import FetchState, fetch, make_session
from scraper.refs import ThreadRef
from scraper.settings import read_limits
from scraper.subject import read_list
from tests.scripted import ScriptedApp, scripted_server


@pytest.fixture
def folder_board(tmp_path: Path) -> Iterator[tuple[BoardServer, ScriptedApp, str]]:
    board = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    key = open_thread(tmp_path, "test", "フォルダの板", "一番")
    server, script = scripted_server(DispatcherMiddleware(NotFound(), {"/bbs": board}))
    yield server, script, key
    server.close()


def test_reads_settings_list_and_posts_stay_in_the_folder(folder_board) -> None:
    server, script, key = folder_board
    ref = ThreadRef.from_url(f"{server.url}/bbs/test/read.cgi/test/{key}/l50")
    session = make_session()
    first = fetch(session, ref, FetchState())
    assert [post.body for post in first.posts] == ["一番"]
    assert read_limits(session, ref) is not None
    assert read_list(session, ref) == [key]
    writer = BoardWriter(requests.Session(), "ボット#tea", "sage")
    assert writer.reply(ref, "フォルダの中へ").posted
    assert [post.body for post in fetch(session, ref, first.state).new_posts] == ["フォルダの中へ"]
    opened = writer.new_thread(ref, "次スレ", "二つ目")
    assert opened.posted and opened.key and opened.key != key
    assert [post.body for post in fetch(session, ref.with_key(opened.key), FetchState()).posts] == ["二つ目"]
    asked = {path for _, path, _ in script.seen}
    assert asked and all(path.startswith("/bbs/") for path in asked), sorted(asked)
