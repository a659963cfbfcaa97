"""The local board and the game page under a crowd: with 1,000 idle connections and 100 that trickle
a request held open on loopback, how long a post (bbs.cgi, after the cookie page) and a poll (the
dat read with Range and If-Modified-Since, as the bot reads) take, and a game page request.

Prints the slowest of each over 20 tries and whether it stayed under 1 s (the target), the same with
no crowd for comparison, and how long the servers took to take the crowd in (waitress accepts one
connection per turn of its loop, so a burst of 1,100 new connections queues for a moment).
"""

from __future__ import annotations

import contextlib
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import requests

from board.admin import open_thread
from board.server import BoardServer, make_app, raise_open_files_limit
from store.db import Store
from web.server import GamePage

IDLE, SLOW, TRIES, TARGET = 1000, 100, 20, 1.0
UA = {"User-Agent": "Monazilla/1.00 (threadgm-bench/0.1)"}


@contextlib.contextmanager
def crowd(port: int, idle: int = IDLE, slow: int = SLOW) -> Iterator[float]:
    """The crowd connected; yields the seconds until a new request was answered again."""
    sockets = []
    try:
        for n in range(idle + slow):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sockets.append(sock)
            if n >= idle:
                sock.sendall(b"GET /test/subject.txt HTTP/1.1\r\nHost: lo")
        start = time.perf_counter()
        requests.get(f"http://127.0.0.1:{port}/static/page.css", timeout=60)  # answered once all are in
        yield time.perf_counter() - start
    finally:
        for sock in sockets:
            sock.close()


def slowest(action: Callable[[], None], tries: int = TRIES) -> float:
    worst = 0.0
    for _ in range(tries):
        start = time.perf_counter()
        action()
        worst = max(worst, time.perf_counter() - start)
    return worst


def measure(server: BoardServer, page: GamePage, key: str) -> dict[str, float]:
    session = requests.Session()
    session.cookies.set("NAME", "")
    session.cookies.set("MAIL", "")
    form = {"bbs": "test", "key": key, "FROM": "", "mail": "", "MESSAGE": "満員", "submit": "書き込む"}
    body = "&".join(f"{k}={requests.utils.quote(v.encode('cp932'))}" for k, v in form.items())
    headers = {**UA, "Content-Type": "application/x-www-form-urlencoded"}
    dat = f"{server.url}/test/dat/{key}.dat"

    def post() -> None:
        page_text = session.post(f"{server.url}/test/bbs.cgi", data=body, headers=headers, timeout=10)
        assert "書きこみました".encode("cp932") in page_text.content

    def poll() -> None:
        size = len(requests.get(dat, headers=UA, timeout=10).content)
        answer = session.get(dat, headers={**UA, "Range": f"bytes={size - 1}-"}, timeout=10)
        assert answer.status_code == 206

    def game_page() -> None:
        assert session.get(f"{page.url}/", timeout=10).status_code == 200

    return {"post": slowest(post), "poll": slowest(poll), "game page": slowest(game_page)}


def main() -> None:
    raise_open_files_limit(4 * (IDLE + SLOW) + 256)  # both crowds, and the servers' ends, in this process
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app = make_app(data, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
        key = open_thread(data, "test", "満員", "一番")
        store = Store(data / "bot.sqlite")
        page = GamePage(store, []).start()
        try:
            with BoardServer(app) as server:
                quiet = measure(server, page, key)
                with crowd(server.port) as board_in, crowd(page.port) as page_in:
                    crowded = measure(server, page, key)
        finally:
            page.close()
            store.close()
    print(f"crowd: {IDLE} idle + {SLOW} trickling connections to the board and to the game page each")
    print(f"  taken in after {board_in:.2f} s (board), {page_in:.2f} s (game page)")
    for name in crowded:
        verdict = "ok" if crowded[name] < TARGET else f"SLOWER than {TARGET:.0f} s"
        print(
            f"  {name:<10} slowest of {TRIES}: {crowded[name] * 1000:7.1f} ms crowded, "
            f"{quiet[name] * 1000:7.1f} ms quiet  {verdict}"
        )


if __name__ == "__main__":
    main()
