"""The game page's static files: a name that is no file of ours — too long for the file system,
with a NUL, climbing out of the folder — is a 404, never a 500 with a traceback in the log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from werkzeug.test import Client

from store.db import Store
from web.app import GamePageApp
from web.view import Views


@pytest.fixture
def client(tmp_path: Path):
    store = Store(tmp_path / "bot.sqlite")
    yield Client(GamePageApp(Views(store, [])))
    store.close()


def test_the_page_s_own_files_are_served(client: Client) -> None:
    answer = client.get("/static/page.js")
    assert answer.status_code == 200 and b"function" in answer.get_data()


@pytest.mark.parametrize(
    "name",
    [
        "a" * 300,
        "a" * 5000 + ".js",
        "page.js%00",
        "%00",
        "..%2fapp.py",
        "page.js%2f..%2f..%2fapp.py",
        "nope.css",
        "%ff%fe",
    ],
    ids=[
        "300 characters",
        "5000 characters",
        "NUL after a name",
        "NUL",
        "climbing out",
        "climbing further",
        "missing",
        "bytes",
    ],
)
def test_a_long_or_odd_static_name_is_a_404(client: Client, name: str, caplog) -> None:
    with caplog.at_level(logging.ERROR):
        answer = client.get(f"/static/{name}")
    assert answer.status_code == 404
    assert "Traceback" not in caplog.text
