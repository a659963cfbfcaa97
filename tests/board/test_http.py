"""The board over real HTTP (waitress + requests): dat files behave like files on a static server."""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from board.admin import delete_post, open_thread
from board.server import BoardServer, _Channel, make_app
from tests.conftest import shared_path

UA = {"User-Agent": "Monazilla/1.00 (threadgm-test/0.1)"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BoardServer]:
    app = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    with BoardServer(app) as running:
        yield running


def reply(server: BoardServer, key: str, message: str) -> None:
    session = requests.Session()
    form = {"bbs": "test", "key": key, "FROM": "", "mail": "", "MESSAGE": message, "submit": "書き込む"}
    body = "&".join(f"{k}={requests.utils.quote(v.encode('cp932'))}" for k, v in form.items())
    headers = {**UA, "Content-Type": "application/x-www-form-urlencoded"}
    for _ in range(2):  # the first answer is the cookie confirmation page
        page = session.post(f"{server.url}/test/bbs.cgi", data=body, headers=headers).content.decode("cp932")
        if "書きこみました" in page:
            return
    raise AssertionError(page)


def age(path: Path, seconds: int = 5) -> None:
    """Move a file's mtime into the past so Last-Modified differs from a new write's."""
    stat = path.stat()
    os.utime(path, (stat.st_atime - seconds, stat.st_mtime - seconds))


def test_full_get_then_differential_reads(server: BoardServer, tmp_path: Path) -> None:
    key = open_thread(tmp_path, "test", "差分取得", "一番")
    dat = tmp_path / "test" / "dat" / f"{key}.dat"
    age(dat)
    url = f"{server.url}/test/dat/{key}.dat"

    full = requests.get(url, headers=UA)
    size = len(full.content)
    assert full.status_code == 200
    assert full.headers["Accept-Ranges"] == "bytes"
    assert int(full.headers["Content-Length"]) == size == dat.stat().st_size
    assert full.headers["Content-Type"] == "text/plain; charset=Shift_JIS"
    modified = full.headers["Last-Modified"]

    unchanged = requests.get(
        url, headers={**UA, "Range": f"bytes={size - 1}-", "If-Modified-Since": modified}
    )
    assert unchanged.status_code == 304 and unchanged.content == b""

    single = requests.get(url, headers={**UA, "Range": f"bytes={size - 1}-"})
    assert single.status_code == 206 and single.content == b"\n"
    assert single.headers["Content-Range"] == f"bytes {size - 1}-{size - 1}/{size}"

    nothing_new = requests.get(url, headers={**UA, "Range": f"bytes={size}-"})
    assert nothing_new.status_code == 416
    assert nothing_new.headers["Content-Range"] == f"bytes */{size}"

    reply(server, key, "二番")
    grown = requests.get(url, headers={**UA, "Range": f"bytes={size - 1}-", "If-Modified-Since": modified})
    assert grown.status_code == 206
    assert grown.content.startswith(b"\n")
    assert grown.content[1:].decode("cp932").split("<>")[3] == "二番"
    assert grown.headers["Content-Range"].endswith(f"/{size + len(grown.content) - 1}")


def test_a_deletion_that_shrinks_the_dat_is_seen_by_the_client(server: BoardServer, tmp_path: Path) -> None:
    key = open_thread(tmp_path, "test", "削除", "一番")
    reply(server, key, "二番" * 40)
    url = f"{server.url}/test/dat/{key}.dat"
    size = len(requests.get(url, headers=UA).content)
    delete_post(tmp_path, "test", key, 2)
    shrunk = requests.get(url, headers={**UA, "Range": f"bytes={size - 1}-"})
    assert shrunk.status_code == 416
    assert int(shrunk.headers["Content-Range"].split("/")[1]) < size


def test_missing_thread_is_404(server: BoardServer) -> None:
    assert requests.get(f"{server.url}/test/dat/1234567890.dat", headers=UA).status_code == 404
    assert requests.get(f"{server.url}/bbs/rawmode.cgi/local/test/1234567890/", headers=UA).status_code == 404


def test_status_codes_match_the_captured_ex0ch_answers(server: BoardServer, tmp_path: Path) -> None:
    """The captured answers of a real ex0ch (Apache) for the same four requests."""
    captured = shared_path("fixtures", "ex0ch", "http_semantics.txt").read_text()
    statuses = [int(line.split()[1]) for line in captured.splitlines() if line.startswith("status ")]
    assert statuses == [200, 206, 416, 404]

    key = open_thread(tmp_path, "test", "比較", "一番")
    url = f"{server.url}/test/dat/{key}.dat"
    full = requests.get(url, headers=UA)
    size = len(full.content)
    # Apache answered 206 with the one byte to Range+IMS on an unchanged file; this board answers 304.
    # Both mean "nothing new", and a client must accept both: without IMS the 206 is reproduced.
    ours = [
        full.status_code,
        requests.get(url, headers={**UA, "Range": f"bytes={size - 1}-"}).status_code,
        requests.get(url, headers={**UA, "Range": f"bytes={size}-"}).status_code,
        requests.get(f"{server.url}/test/dat/1111111111.dat", headers=UA).status_code,
    ]
    assert ours == statuses


def test_dot_dot_paths_never_reach_a_file(server: BoardServer, tmp_path: Path) -> None:
    raw = requests.Session()
    for path in (
        "/test/dat/..%2FSETTING.TXT",
        "/test/dat/%2e%2e/board.json",
        "/test/board.json",
        "/test/.lock",
    ):
        prepared = requests.Request("GET", f"{server.url}{path}").prepare()
        prepared.url = f"{server.url}{path}"  # keep the path exactly as written
        assert raw.send(prepared).status_code == 404, path


def test_idle_polls_reuse_one_connection(tmp_path: Path) -> None:
    # waitress closes after every bodiless answer unless told otherwise; a poller would then open a
    # new TCP connection for each 304 (thousands in TIME_WAIT at scale).
    app = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    ports: list[str] = []

    def recording(environ, start_response):
        ports.append(environ["REMOTE_PORT"])  # the client's end: one port, one connection
        return app(environ, start_response)

    key = open_thread(tmp_path, "test", "差分取得", "一番")
    age(tmp_path / "test" / "dat" / f"{key}.dat")
    with BoardServer(recording) as server:
        session = requests.Session()
        url = f"{server.url}/test/dat/{key}.dat"
        since = {**UA, "If-Modified-Since": session.get(url, headers=UA).headers["Last-Modified"]}
        answers = [session.get(url, headers=since) for _ in range(5)]
        assert [answer.status_code for answer in answers] == [304] * 5
        assert len(set(ports)) == 1
        closing = session.get(url, headers={**since, "Connection": "close"})
    assert closing.status_code == 304 and closing.headers["Connection"] == "close"  # asked: still closes


def _answers(sock, count: int) -> list[bytes]:
    """`count` HTTP answers read off one connection (each a head, then its Content-Length body)."""
    data, answers = b"", []
    while len(answers) < count:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, answers
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        length = re.search(rb"Content-Length: (\d+)", head)
        size = int(length[1]) if length else 0
        while len(data) < size:
            data += sock.recv(65536)
        answers.append(head + b"\r\n\r\n" + data[:size])
        data = data[size:]
    return answers


def test_idle_polls_answered_in_the_event_loop_keep_their_order_and_their_connection(
    server: BoardServer, tmp_path: Path
) -> None:
    # The board answers an idle poll without a worker thread; pipelined behind and before requests
    # that do need one, every answer still comes in the order asked, on the one connection.
    key = open_thread(tmp_path, "test", "差分取得", "一番")
    age(tmp_path / "test" / "dat" / f"{key}.dat")
    url = f"{server.url}/test/dat/{key}.dat"
    modified = requests.get(url, headers=UA).headers["Last-Modified"]
    poll = f"GET /test/dat/{key}.dat HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: {modified}\r\n\r\n"
    full = f"GET /test/dat/{key}.dat HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall((poll + full + poll + poll).encode())
        statuses = [answer.split(b" ", 2)[1] for answer in _answers(sock, 4)]
        assert statuses == [b"304", b"200", b"304", b"304"]
        sock.sendall(poll.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n").encode())
        (closing,) = _answers(sock, 1)
        assert b" 304 " in closing and b"Connection: close" in closing
        assert sock.recv(100) == b""  # and it closes, as asked


def test_an_answer_leaves_in_one_send_with_its_headers(
    server: BoardServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # waitress sends the headers on their own; the board sends them with the body (one send, one TCP
    # segment): what arrives is the same bytes.
    sent: list[bytes] = []
    original = _Channel.send

    def recording(channel: _Channel, data: bytes, *args: object, **options: object) -> int:
        sent.append(bytes(data))
        return original(channel, data, *args, **options)

    monkeypatch.setattr(_Channel, "send", recording)
    key = open_thread(tmp_path, "test", "一度に", "一番")
    reply(server, key, "二番")
    written = [data for data in sent if "書きこみました".encode("cp932") in data]
    assert len(written) == 1 and written[0].startswith(b"HTTP/1.1 200 OK\r\n")
    head, _, body = written[0].partition(b"\r\n\r\n")
    assert int(re.search(rb"Content-Length: (\d+)", head)[1]) == len(body)


@pytest.mark.parametrize(
    ("headers", "chunks", "expected"),
    [
        ([], [b"chunked ", b"answer"], b"chunked answer"),  # no length: waitress chunks it
        ([("Content-Length", "4")], [b"too long"], b"too "),  # more than announced: cut at the length
        ([("Content-Length", "8")], [b"two ", b"parts"], b"two part"),
    ],
)
def test_answers_the_board_does_not_send_in_one_go_are_sent_as_waitress_sends_them(
    headers: list[tuple[str, str]], chunks: list[bytes], expected: bytes
) -> None:
    def app(environ: dict, start_response) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain"), *headers])
        return chunks

    with BoardServer(app) as running:
        answer = requests.get(f"{running.url}/", headers=UA)
    assert answer.status_code == 200 and answer.content == expected
