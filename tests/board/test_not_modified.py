"""The idle poll's short cut (board.not_modified) answers exactly what the full Werkzeug way answers,
and takes only the requests the full way would answer 304."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from werkzeug.http import http_date
from werkzeug.test import Client

from board.admin import open_thread
from board.app import BoardApp
from board.not_modified import NotModified
from board.storage import BoardStore


@pytest.fixture
def boards(tmp_path: Path) -> tuple[BoardApp, BoardApp, str]:
    """The app as served, the same app with the short cut off, and a thread key."""
    store = BoardStore(tmp_path)
    BoardStore(tmp_path).open("other", create=True)  # on disk, but not served
    served = BoardApp(store, ["test"])
    full_way = BoardApp(store, ["test"])
    full_way._not_modified = NotModified({})  # no board: every request goes the full way
    key = open_thread(tmp_path, "test", "差分", "一番")
    for path in (tmp_path / "test" / "dat" / f"{key}.dat", tmp_path / "test" / "subject.txt"):
        stat = path.stat()
        os.utime(path, (stat.st_atime - 100, stat.st_mtime - 100))
    return served, full_way, key


def _answer(app: BoardApp, method: str, path: str, headers: dict[str, str]) -> tuple[str, list, bytes]:
    response = Client(app).open(path, method=method, headers=headers)
    # Date is the second the answer left: two answers compared may straddle one (it failed under load)
    kept = sorted((name, value) for name, value in response.headers.items() if name != "Date")
    return response.status, kept, response.get_data()


def _modified(tmp_path: Path, name: str, offset: int = 0) -> str:
    return http_date(int((tmp_path / "test" / name).stat().st_mtime) + offset)


def test_the_short_cut_answers_the_idle_poll_as_the_full_way_does(boards, tmp_path: Path) -> None:
    served, full_way, key = boards
    dat = f"dat/{key}.dat"
    for method in ("GET", "HEAD"):
        for url, name in (
            (f"/test/{dat}", dat),
            ("/test/subject.txt", "subject.txt"),
            ("/test/SETTING.TXT", "SETTING.TXT"),
        ):
            for offset in (0, 3600):  # the Last-Modified sent back, or any later time
                headers = {"If-Modified-Since": _modified(tmp_path, name, offset), "Range": "bytes=5-"}
                environ = {
                    "REQUEST_METHOD": method,
                    "PATH_INFO": url,
                    "HTTP_IF_MODIFIED_SINCE": headers["If-Modified-Since"],
                }
                assert served._not_modified.applies(environ), (method, url)
                answer = _answer(served, method, url, headers)
                assert answer[0] == "304 NOT MODIFIED" and answer[2] == b""
                assert answer == _answer(full_way, method, url, headers)


@pytest.mark.parametrize(
    ("method", "url", "since", "extra"),
    [
        ("GET", "/test/dat/{key}.dat", -1, {}),  # changed since: the full file
        ("GET", "/test/dat/{key}.dat", 0, {"If-None-Match": '"x"'}),  # the ETag decides
        ("GET", "/test/dat/{key}.dat", None, {"If-Modified-Since": "yesterday"}),  # unreadable: ignored
        ("GET", "/test/dat/{key}.dat", None, {"If-Modified-Since": "Sunday, 06-Nov-94 08:49:37 GMT"}),
        ("GET", "/test/dat/1234567890.dat", 0, {}),  # no such thread
        ("GET", "/other/subject.txt", 0, {}),  # a board on disk that is not served
        ("GET", "/test//dat/{key}.dat", 0, {}),  # the router redirects it
        ("GET", "/test/dat/{key}.dat/", 0, {}),
        ("GET", "/test/board.json", 0, {}),
        ("GET", "/test/dat/..%2FSETTING.TXT", 0, {}),
        ("POST", "/test/dat/{key}.dat", 0, {}),
        ("PUT", "/test/subject.txt", 0, {}),
    ],
)
def test_anything_else_goes_the_full_way(boards, tmp_path: Path, method, url, since, extra) -> None:
    served, full_way, key = boards
    url = url.format(key=key)
    headers = dict(extra)
    if since is not None:
        headers["If-Modified-Since"] = _modified(tmp_path, f"dat/{key}.dat", since)
    environ = {"REQUEST_METHOD": method, "PATH_INFO": url.replace("%2F", "/")}
    environ.update({f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()})
    answer = _answer(served, method, url, headers)
    assert answer == _answer(full_way, method, url, headers)
    if answer[0].startswith("304"):  # an old date form Werkzeug reads: the full way agrees, either way
        return
    assert not served._not_modified.applies(environ)


def test_a_directory_where_a_dat_should_be_is_not_a_dat(boards, tmp_path: Path) -> None:
    served, full_way, _ = boards
    (tmp_path / "test" / "dat" / "1234567890.dat").mkdir()
    headers = {"If-Modified-Since": http_date(2_000_000_000)}
    url = "/test/dat/1234567890.dat"
    assert not served._not_modified.applies(
        {"REQUEST_METHOD": "GET", "PATH_INFO": url, "HTTP_IF_MODIFIED_SINCE": headers["If-Modified-Since"]}
    )
    assert _answer(served, "GET", url, headers) == _answer(full_way, "GET", url, headers)
    assert _answer(served, "GET", url, headers)[0].startswith("404")


def test_a_post_after_the_poll_is_seen_by_the_next_poll(boards, tmp_path: Path) -> None:
    served, _, key = boards
    url = f"/test/dat/{key}.dat"
    since = {"If-Modified-Since": _modified(tmp_path, f"dat/{key}.dat")}
    assert _answer(served, "GET", url, since)[0].startswith("304")
    with (tmp_path / "test" / "dat" / f"{key}.dat").open("ab") as dat:
        dat.write("名無し<><>2026/11/29(日) 21:22:13<>二番<>\n".encode("cp932"))
    status, _, body = _answer(served, "GET", url, since)
    assert status.startswith("200") and "二番".encode("cp932") in body
