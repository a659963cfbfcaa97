"""Local board throughput over real HTTP (waitress on loopback, one keep-alive http.client client,
so the figures are the board's, not a heavy client library's).

Prints requests/second for: an idle differential read of a 1000-post thread (Range from size-1 with
If-Modified-Since → 304), a differential read that returns the last post (206), a full read of the
dat, and posting through bbs.cgi (after the cookie confirmation, samba off).
"""

from __future__ import annotations

import http.client
import os
import tempfile
from pathlib import Path
from urllib.parse import quote

from bench.timing import repeated
from board.admin import open_thread
from board.server import BoardServer, make_app

HEADERS = {"User-Agent": "Monazilla/1.00 (threadgm-bench/0.1)"}
LINE = (
    "名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>{n}番目のレスです。dice2d47=<br>二行目もあります<>\n"
)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app = make_app(data, ["bench"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
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

            print(f"posting via bbs.cgi (with trip): {repeated(500, post):8.0f} posts/s")


if __name__ == "__main__":
    main()
