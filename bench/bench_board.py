"""Local board throughput over real HTTP (waitress on loopback, one keep-alive http.client client,
so the figures are the board's, not a heavy client library's).

Prints requests/second for: an idle differential read of a 1000-post thread (Range from size-1 with
If-Modified-Since → 304), a differential read that returns the last post (206), a full read of the
dat, and posting through bbs.cgi (after the cookie confirmation, samba off): into one thread of a
board holding two, and into a board of 1,000 threads (ten posts each, every post aging its thread to
the top of subject.txt), where the thread list is what a post costs.
"""

from __future__ import annotations

import http.client
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from bench.timing import repeated
from board.admin import open_thread
from board.server import BoardServer, make_app
from board.storage import BoardStore, encode

HEADERS = {"User-Agent": "Monazilla/1.00 (threadgm-bench/0.1)"}
LINE = (
    "名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>{n}番目のレスです。dice2d47=<br>二行目もあります<>\n"
)
MANY_THREADS = 1000
POSTS_PER_THREAD = 10


def _posting(post: Callable[[], None], count: int = 500) -> tuple[float, float]:
    """Posts per second of wall time and per CPU-second of this process (client and server both run
    in it: on a busy machine the CPU figure is the steadier one)."""
    start = time.process_time()
    rate = repeated(count, post)
    return rate, count / (time.process_time() - start)


def fill_board(data: Path, name: str, defaults: dict[str, str]) -> list[str]:
    """MANY_THREADS threads of POSTS_PER_THREAD posts written straight to disk; their keys, newest first."""
    board = BoardStore(data, defaults=defaults).open(name, create=True).path
    keys = [str(1_700_000_000 + n) for n in range(MANY_THREADS)]
    for n, key in enumerate(keys):
        first = f"名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>本文<>スレッド{n}番\n"
        (board / "dat" / f"{key}.dat").write_bytes(
            encode(first + "".join(LINE.format(n=i) for i in range(2, POSTS_PER_THREAD + 1)))
        )
    listed = reversed(keys)
    subject = "".join(
        f"{key}.dat<>スレッド{int(key) - 1_700_000_000}番 ({POSTS_PER_THREAD})\n" for key in listed
    )
    (board / "subject.txt").write_bytes(encode(subject))
    return keys[::-1]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        defaults = {"BBS_SAMBATIME": "0", "timeclose": ""}
        many = fill_board(data, "many", defaults)
        app = make_app(data, ["bench", "many"], defaults=defaults)
        key = open_thread(data, "bench", "ベンチスレ", "1000レスのスレ")
        dat = data / "bench" / "dat" / f"{key}.dat"
        with dat.open("ab") as handle:
            handle.write("".join(LINE.format(n=n) for n in range(2, 1001)).encode("cp932"))
        stat = dat.stat()
        os.utime(dat, (stat.st_atime - 10, stat.st_mtime - 10))
        size = dat.stat().st_size
        last_line = len(LINE.format(n=1000).encode("cp932"))

        with BoardServer(app) as server:
            conn = http.client.HTTPConnection("127.0.0.1", server.port)

            def get(path: str, **headers: str) -> http.client.HTTPResponse:
                conn.request("GET", path, headers={**HEADERS, **headers})
                answer = conn.getresponse()
                answer.body = answer.read()
                return answer

            path = f"/bench/dat/{key}.dat"
            modified = get(path).getheader("Last-Modified")

            def idle() -> None:
                answer = get(path, **{"Range": f"bytes={size - 1}-", "If-Modified-Since": modified})
                assert answer.status == 304

            def one_new_post() -> None:
                answer = get(path, Range=f"bytes={size - last_line - 1}-")
                assert answer.status == 206 and answer.body.startswith(b"\n")

            def full() -> None:
                assert len(get(path).body) == size

            print(f"dat of 1000 posts: {size} bytes")
            print(f"diff read, idle (304):           {repeated(3000, idle):8.0f} req/s")
            print(f"diff read, one new post (206):   {repeated(3000, one_new_post):8.0f} req/s")
            print(f"full read (200, {size // 1024} KiB):       {repeated(500, full):8.0f} req/s")

            thread = open_thread(data, "bench", "書き込みベンチ", "ここに書く")
            form = {
                "bbs": "bench",
                "key": thread,
                "FROM": "ベンチ#tea",
                "mail": "sage",
                "MESSAGE": "書き込み",
            }
            body = "&".join(f"{k}={quote(v.encode('cp932'))}" for k, v in form.items())
            post_headers = {
                **HEADERS,
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": 'NAME=""; MAIL=""',
            }

            def post() -> None:
                conn.request("POST", "/test/bbs.cgi", body=body, headers=post_headers)
                assert "書きこみました".encode("cp932") in conn.getresponse().read()

            rate, cpu_rate = _posting(post)
            print(f"posting via bbs.cgi (with trip): {rate:8.0f} posts/s ({cpu_rate:.0f} per CPU-second)")

            turn = iter(range(10**9))

            def post_many() -> None:
                fields = {**form, "bbs": "many", "key": many[next(turn) % len(many)], "mail": ""}
                data = "&".join(f"{k}={quote(v.encode('cp932'))}" for k, v in fields.items())
                conn.request("POST", "/test/bbs.cgi", body=data, headers=post_headers)
                assert "書きこみました".encode("cp932") in conn.getresponse().read()

            rate, cpu_rate = _posting(post_many)
            print(
                f"posting, board of {MANY_THREADS} threads:  {rate:8.0f} posts/s ({cpu_rate:.0f} per CPU-second)"
            )


if __name__ == "__main__":
    main()
