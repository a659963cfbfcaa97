"""Local board throughput over real HTTP, against peers measured in the same run.

One keep-alive http.client client in this process (so the figures are the servers', not a heavy
client library's). Rounds alternate between the board and its peer; each rate is the median of its
rounds and each ratio the median of the rounds' ratios, taken pair by pair (so a drift in the
machine's speed moves both sides of a pair), per second of wall time and per CPU-second of this
process (client and server both run in it: on a busy machine the CPU figure is the steadier one):

- idle differential read of a 1000-post dat (Range from size-1 with If-Modified-Since → 304), against
  the standard library's `http.server` (ThreadingHTTPServer, SimpleHTTPRequestHandler over the same
  data directory, HTTP/1.1 keep-alive, TCP_NODELAY) answering the same conditional GET;
- posting through bbs.cgi (after the cookie confirmation, samba off, a trip in the name), against a
  bare append-only WSGI app on the same waitress server (it reads the body, appends it to a file and
  answers a one-line page): what the board's own work costs over the server's, for the record
  (the client's CPU is in both figures, and most of the bare app's);
- for the record (no peer): the differential read returning the last post (206), a full read, and
  posting into a board of 1,000 threads, where rewriting subject.txt is what a post costs;
- posting, the board now against the board as it was when issue 30 was filed (commit `FILED`, whose
  "posts ≥ 2× today" this is), each served from a process of its own (bench/board_peer.py) to the
  same client here: the server process's CPU per post (the board's own cost — the target), and
  with the client's added (the client is the same on both sides, so it pulls that ratio towards 1);
  with `--callgrind`, each server's user-space instructions per post under valgrind, a figure the
  load of a shared machine does not move.
"""

from __future__ import annotations

import argparse
import http.client
import http.server
import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

from bench.board_peer import ROOT, PeerBoard, board_at
from bench.timing import repeated
from board.admin import open_thread
from board.server import BoardServer, make_app
from board.storage import BoardStore, encode

HEADERS = {"User-Agent": "Monazilla/1.00 (threadgm-bench/0.1)"}
LINE = (
    "名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>{n}番目のレスです。dice2d47=<br>二行目もあります<>\n"
)
POST_HEADERS = {
    **HEADERS,
    "Content-Type": "application/x-www-form-urlencoded",
    "Cookie": 'NAME=""; MAIL=""',
}
# Every post of the bench: a trip in the name (the GM bot's way), sage.
FORM = {"bbs": "bench", "FROM": "ベンチ#tea", "mail": "sage", "MESSAGE": "書き込み"}
WRITTEN = "書きこみました".encode("cp932")
MANY_THREADS = 1000
POSTS_PER_THREAD = 10
READS = 1000  # per round
POSTS = 150  # per round
# main when issue 30 was filed (2026-12-01 10:39 UTC): its board is the "today" of "posts ≥ 2× today".
FILED = "af5edbc"
CALLGRIND_POSTS = 100  # counted, after as many again to warm up


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


def rates(count: int, action: Callable[[], object]) -> tuple[float, float]:
    """Actions per second of wall time and per CPU-second of this process, over `count` calls."""
    start = time.process_time()
    wall = repeated(count, action)
    return wall, count / (time.process_time() - start)


class _StaticHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the board's clients use it
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def stdlib_server(root: Path) -> Iterator[int]:
    """`http.server` serving `root` in a daemon thread; its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_StaticHandler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="http.server", daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def append_only_app(sink: Path) -> Callable:
    """The least a post can cost on the board's server: the body appended to a file, a page sent."""
    page = "<html><body>書きこみました。</body></html>".encode("cp932")

    def app(environ: dict, start_response: Callable) -> list[bytes]:
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        with sink.open("ab") as out:
            out.write(body + b"\n")
        start_response(
            "200 OK", [("Content-Type", "text/html; charset=Shift_JIS"), ("Content-Length", str(len(page)))]
        )
        return [page]

    return app


class Client:
    """One keep-alive connection to a server on loopback."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port)

    def get(self, path: str, **headers: str) -> tuple[int, bytes, http.client.HTTPResponse]:
        self.conn.request("GET", path, headers={**HEADERS, **headers})
        answer = self.conn.getresponse()
        return answer.status, answer.read(), answer

    def post(self, body: str) -> None:
        self.conn.request("POST", "/test/bbs.cgi", body=body, headers=POST_HEADERS)
        page = self.conn.getresponse().read()
        assert WRITTEN in page, page.decode("cp932", "replace")

    def close(self) -> None:
        self.conn.close()


def form_body(fields: dict[str, str]) -> str:
    return "&".join(f"{k}={quote(v.encode('cp932'))}" for k, v in fields.items())


def _median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def _line(label: str, runs: list[tuple[float, float]], unit: str) -> tuple[float, float]:
    wall, cpu = _median(runs)
    print(f"{label:<44} {wall:8.0f} {unit}/s  ({cpu:6.0f} per CPU-s)")
    return wall, cpu


def _ratio(
    label: str, ours: list[tuple[float, float]], peer: list[tuple[float, float]], target: float | None
) -> None:
    walls = [a[0] / b[0] for a, b in zip(ours, peer, strict=True)]
    cpus = [a[1] / b[1] for a, b in zip(ours, peer, strict=True)]
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    verdict = "" if target is None else f"   target ≥ {target}× CPU: {'met' if cpu >= target else 'NOT met'}"
    print(
        f"  {label:<42} {wall:5.2f}× wall ({min(walls):.2f}–{max(walls):.2f}), "
        f"{cpu:5.2f}× CPU ({min(cpus):.2f}–{max(cpus):.2f}){verdict}"
    )


class _Setup:
    """The data directory: board `bench` with a 1000-post dat aged 10 s, board `many` of 1,000 threads."""

    def __init__(self, data: Path) -> None:
        defaults = {"BBS_SAMBATIME": "0", "timeclose": ""}
        self.data = data
        self.many = fill_board(data, "many", defaults)
        self.app = make_app(data, ["bench", "many"], defaults=defaults)
        self.key = open_thread(data, "bench", "ベンチスレ", "1000レスのスレ")
        dat = data / "bench" / "dat" / f"{self.key}.dat"
        with dat.open("ab") as handle:
            handle.write("".join(LINE.format(n=n) for n in range(2, 1001)).encode("cp932"))
        stat = dat.stat()
        os.utime(dat, (stat.st_atime - 10, stat.st_mtime - 10))
        self.size = dat.stat().st_size
        self.last_line = len(LINE.format(n=1000).encode("cp932"))
        self.path = f"/bench/dat/{self.key}.dat"


def _measure(setup: _Setup, board: Client, stdlib: Client, bare: Client, rounds: int) -> None:
    path, size = setup.path, setup.size
    modified = board.get(path)[2].getheader("Last-Modified")
    assert stdlib.get(path)[2].getheader("Last-Modified") == modified  # the same file, the same answer
    idle_headers = {"Range": f"bytes={size - 1}-", "If-Modified-Since": modified}

    def idle(client: Client) -> Callable[[], None]:
        def read() -> None:
            status, body, _ = client.get(path, **idle_headers)
            assert status == 304 and body == b"", status

        return read

    def one_new_post() -> None:
        status, body, _ = board.get(path, Range=f"bytes={size - setup.last_line - 1}-")
        assert status == 206 and body.startswith(b"\n")

    def full() -> None:
        assert len(board.get(path)[1]) == size

    form = FORM
    bare_body = form_body({**form, "key": setup.key})
    turn = iter(range(10**9))

    def post_many() -> None:
        key = setup.many[next(turn) % len(setup.many)]
        board.post(form_body({**form, "bbs": "many", "key": key, "mail": ""}))

    ours_304, peer_304, ours_post, peer_post = [], [], [], []
    for _ in range(rounds):
        ours_304.append(rates(READS, idle(board)))
        peer_304.append(rates(READS, idle(stdlib)))
        # A fresh thread each round, so every round posts into a dat of the same length.
        thread_body = form_body(
            {**form, "key": open_thread(setup.data, "bench", "書き込みベンチ", "ここに書く")}
        )
        ours_post.append(rates(POSTS, lambda body=thread_body: board.post(body)))
        peer_post.append(rates(POSTS, lambda: bare.post(bare_body)))
    _line("diff read, idle (304): board", ours_304, "req")
    _line("  http.server, same conditional GET", peer_304, "req")
    _ratio("board / http.server", ours_304, peer_304, 0.8)
    _line("posting via bbs.cgi (with trip): board", ours_post, "posts")
    _line("  bare append-only app, same server", peer_post, "posts")
    # For the record: the client's CPU is in both, and most of the bare app's. The posts target is
    # measured against the board as filed, below.
    _ratio("board / bare app (issue 30 found 0.21×)", ours_post, peer_post, None)
    _line("diff read, one new post (206)", [rates(READS, one_new_post)], "req")
    _line(f"full read (200, {size // 1024} KiB)", [rates(POSTS, full)], "req")
    _line(f"posting, board of {MANY_THREADS} threads", [rates(POSTS, post_many)], "posts")


class _Round(NamedTuple):
    """One round of posts: posts per wall second, and per post the server process's CPU seconds,
    the kernel's part of them, and the client's."""

    wall: float
    server: float
    kernel: float
    client: float


def _post_rounds(board: PeerBoard, client: Client) -> _Round:
    """POSTS posts into a fresh thread."""
    body = form_body({**FORM, "key": board.new_thread()})
    kernel = board.times()[1]
    server, started = board.cpu(), time.process_time()
    wall = repeated(POSTS, lambda: client.post(body))
    mine = time.process_time() - started
    server = board.cpu() - server
    return _Round(wall, server / POSTS, (board.times()[1] - kernel) / POSTS, mine / POSTS)


def _against_filing_day(tmp: Path, filed: str, checkout: Path, rounds: int) -> None:
    sides = {
        "board now": PeerBoard(ROOT, tmp / "now"),
        f"board as filed ({filed})": PeerBoard(checkout, tmp / "filed-data"),
    }
    clients = {label: Client(board.port) for label, board in sides.items()}
    runs: dict[str, list[_Round]] = {label: [] for label in sides}
    try:
        for turn in range(rounds):  # alternating, and which goes first alternates too
            for label in list(sides)[:: 1 if turn % 2 == 0 else -1]:
                runs[label].append(_post_rounds(sides[label], clients[label]))
    finally:
        for label, board in sides.items():
            clients[label].close()
            board.close()
    print("posting via bbs.cgi, each board in its own process, the same client (in this one):")
    for label, rows in runs.items():
        wall = statistics.median(row.wall for row in rows)
        server = statistics.median(row.server for row in rows)
        kernel = statistics.median(row.kernel for row in rows)
        both = statistics.median(row.server + row.client for row in rows)
        print(
            f"  {label:<42} {wall:6.0f} posts/s  server {server * 1e6:5.0f} µs/post "
            f"({1 / server:5.0f} per CPU-s; {kernel * 1e6:4.0f} µs of it in the kernel), "
            f"with the client {both * 1e6:5.0f} µs"
        )
    now, then = runs.values()

    def ratio(of: Callable[[_Round], float]) -> str:
        pairs = [of(b) / of(a) for a, b in zip(now, then, strict=True)]
        return f"{statistics.median(pairs):4.2f}× ({min(pairs):.2f}–{max(pairs):.2f})"

    server_pairs = [b.server / a.server for a, b in zip(now, then, strict=True)]
    verdict = "met" if statistics.median(server_pairs) >= 2 else "NOT met"
    print(
        f"  now / as filed: server CPU {ratio(lambda r: r.server)}, its user space "
        f"{ratio(lambda r: r.server - r.kernel)}, with the client "
        f"{ratio(lambda r: r.server + r.client)}, wall {ratio(lambda r: 1 / r.wall)}   "
        f"target ≥ 2× (server CPU): {verdict}"
    )


def _instructions_against_filing_day(tmp: Path, filed: str, filed_checkout: Path) -> None:
    """Each server's user-space instructions per post, counted by callgrind between two dumps."""
    counts = {}
    for label, checkout in (("now", ROOT), (f"as filed ({filed})", filed_checkout)):
        board = PeerBoard(checkout, tmp / f"cg-{len(counts)}", callgrind=tmp / f"callgrind-{len(counts)}.out")
        client = Client(board.port)
        try:
            body = form_body({**FORM, "key": board.new_thread()})
            for _ in range(CALLGRIND_POSTS):
                client.post(body)
            board.instructions_since_last_dump()
            for _ in range(CALLGRIND_POSTS):
                client.post(body)
            counts[label] = board.instructions_since_last_dump() / CALLGRIND_POSTS
        finally:
            client.close()
            board.close()
    (now, then) = counts.values()
    print(
        "instructions per post (callgrind, the server process, user space): "
        + ", ".join(f"{label} {count / 1e6:.2f} M" for label, count in counts.items())
        + f": {then / now:.2f}× fewer"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench board", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds per pair (default 7)")
    parser.add_argument(
        "--filed", default=FILED, help=f"the commit whose board the posts are compared with (default {FILED})"
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="also count each board's instructions per post under valgrind (slow: a minute or two)",
    )
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        setup = _Setup(Path(tmp))
        print(f"dat of 1000 posts: {setup.size} bytes; {options.rounds} alternating rounds, medians")
        bare_app = append_only_app(setup.data / "append-only.txt")
        with (
            BoardServer(setup.app) as board_server,
            stdlib_server(setup.data) as stdlib_port,
            BoardServer(bare_app) as bare_server,
        ):
            clients = Client(board_server.port), Client(stdlib_port), Client(bare_server.port)
            try:
                _measure(setup, *clients, options.rounds)
            finally:
                for client in clients:
                    client.close()
        try:
            filed = board_at(options.filed, Path(tmp) / "filed")
        except (OSError, subprocess.CalledProcessError) as error:  # no git, or a clone without that commit
            print(
                f"posting against the board as filed ({options.filed}): not measured, no such checkout ({error})"
            )
            return
        _against_filing_day(Path(tmp), options.filed, filed, options.rounds)
        if options.callgrind:
            _instructions_against_filing_day(Path(tmp), options.filed, filed)


if __name__ == "__main__":
    main()
