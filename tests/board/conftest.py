"""A board application on a temporary directory with an injectable clock, driven without sockets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from werkzeug.test import Client, TestResponse

from board.app import BoardApp
from board.posting import JST, PostingService
from board.storage import BoardStore


@dataclass
class FakeClock:
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 29, 21, 22, 13, tzinfo=JST))
    mono: float = 1000.0

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.mono += seconds

    def wall(self) -> datetime:
        return self.now

    def monotonic(self) -> float:
        return self.mono


@dataclass
class BoardHarness:
    app: BoardApp
    data: Path
    clock: FakeClock
    make_client: Callable[[str], Client]

    def client(self, address: str = "192.0.2.1") -> Client:
        return self.make_client(address)

    @property
    def board(self):
        return self.app.store.open("test")


def sjis_form(**fields: str) -> bytes:
    return urlencode(fields, encoding="cp932").encode("ascii")


def euc_form(**fields: str) -> bytes:
    return urlencode(fields, encoding="euc_jp", errors="xmlcharrefreplace").encode("ascii")


def post_2ch(client: Client, *, confirm: bool = True, **fields: str) -> TestResponse:
    """Post through bbs.cgi like a browser: answer the cookie confirmation page once if it comes."""
    fields.setdefault("bbs", "test")
    fields.setdefault("submit", "書き込む")
    response = client.post(
        "/test/bbs.cgi", data=sjis_form(**fields), content_type="application/x-www-form-urlencoded"
    )
    if confirm and "2ch_X:cookie" in response.get_data().decode("cp932"):
        fields["submit"] = "上記全てを承諾して書き込む"
        response = client.post(
            "/test/bbs.cgi", data=sjis_form(**fields), content_type="application/x-www-form-urlencoded"
        )
    return response


def post_jbbs(client: Client, board: str, key: str | None, **fields: str) -> TestResponse:
    fields.setdefault("DIR", "local")
    fields.setdefault("BBS", board)
    fields.setdefault("submit", "書き込む")
    target = key or "new"
    return client.post(
        f"/bbs/write.cgi/local/{board}/{target}/",
        data=euc_form(**fields),
        content_type="application/x-www-form-urlencoded",
    )


def new_thread(client: Client, title: str = "テストスレ", message: str = "スレ立て", **fields: str) -> str:
    response = post_2ch(client, subject=title, MESSAGE=message, **fields)
    page = response.get_data().decode("cp932")
    assert "書きこみました" in page, page
    return page.split("/test/read.cgi/test/")[1].split("/")[0]


@pytest.fixture
def harness(tmp_path: Path) -> BoardHarness:
    clock = FakeClock()
    store = BoardStore(tmp_path, defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    app = BoardApp(store, ["test"], PostingService(store, clock=clock.wall, monotonic=clock.monotonic))

    def make_client(address: str) -> Client:
        return _AddressedClient(app, address)

    return BoardHarness(app, tmp_path, clock, make_client)


class _AddressedClient(Client):
    """A test client whose requests come from one remote address (IDs and samba are per client)."""

    def __init__(self, app: BoardApp, address: str) -> None:
        super().__init__(app, use_cookies=True)
        self.address = address

    def open(self, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("environ_base", {})["REMOTE_ADDR"] = self.address
        return super().open(*args, **kwargs)
