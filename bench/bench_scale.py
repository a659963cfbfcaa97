"""One bot process serving many threads: `python -m bench scale [THREADS] [--interval S] ...`.

Starts the local board (in this process) with THREADS threads, and `threadgm run` (a process of its
own, so its CPU and memory are its alone) with one dice game per thread polling every `--interval`
seconds. Once every game is online it measures an idle window, then a window with players posting
`--rate` dice posts a second to random threads, and prints:
- polls achieved per second against the configured THREADS / interval;
- the bot's CPU (% of one core) and RSS, idle and under the post rate, and the CPU of this process
  (the board serving it, and the players) — what may bound the polls on a loaded machine;
- bytes and TCP connections per idle poll (one connection reused is 1 / polls per connection);
- post → answer p50 / p95 (the answer's arrival at the board's bbs.cgi).
`--checkout PATH` runs the bot from another checkout of threadgm (the same board and load), to
compare two versions in one run. `--workers N` and `--per-host N` set the bot's polls in flight
(all of them, and on one host: every thread here is on one host); unset, the bot's defaults.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qsl

from board.admin import ADMIN_CLIENT
from board.posting import Client, PostingService, WriteForm, Written, jst_now
from board.server import BoardServer, make_app
from board.settings import LOCAL_PLAY

BOT = "ベンチ係"
BOT_NAME = f"{BOT}#bench-scale-key"
ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


class Counting:
    """The board's WSGI app, counting what the bot asks of it."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.polls: list[tuple[float, int, str]] = []  # (when, bytes both ways, client port)
        self.answers: dict[tuple[str, int], float] = {}  # (thread key, post answered) -> when
        self.online: set[str] = set()  # threads the bot has posted in

    def __call__(self, environ, start_response):
        path, now = environ.get("PATH_INFO", ""), time.monotonic()
        if environ["REQUEST_METHOD"] == "POST" and path.endswith("/bbs.cgi"):
            self._post(environ, now)
        sent: list[int] = []

        def counting_start(status, headers, exc_info=None):
            # the status line, the app's headers, and waitress' Date and Server (about 60 bytes)
            sent.append(len(status) + 11 + sum(len(k) + len(v) + 4 for k, v in headers) + 62)
            return start_response(status, headers, exc_info)

        body = b"".join(self.app(environ, counting_start))
        if environ["REQUEST_METHOD"] == "GET" and "/dat/" in path:
            asked = (
                len(path)
                + 15
                + sum(len(k) + len(str(v)) for k, v in environ.items() if k.startswith("HTTP_"))
            )
            with self.lock:
                self.polls.append((now, asked + sum(sent) + len(body), environ.get("REMOTE_PORT", "")))
        return [body]

    def _post(self, environ, now: float) -> None:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = _Replay(raw)
        form = dict(parse_qsl(raw.decode("ascii", errors="replace"), encoding="cp932"))
        if not form.get("FROM", "").startswith(BOT):
            return
        with self.lock:
            self.online.add(form.get("key", ""))
            for line in form.get("MESSAGE", "").replace("\r\n", "\n").split("\n"):
                if line.startswith(">>") and line[2:].isdigit():
                    self.answers[form.get("key", ""), int(line[2:])] = now


class _Replay:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.at + size
        chunk, self.at = self.data[self.at : end], min(end, len(self.data))
        return chunk

    def readline(self, size: int = -1) -> bytes:
        return self.read(size)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_threads(app, count: int) -> list[str]:
    """`count` threads opened on the board's own posting service, as its owner, one a second over
    the last `count` seconds: each takes the key of its own second (a board's key is the time a
    thread was opened), so no opening probes past the keys taken before it, and the board's thread
    list stays in memory between openings (`threadgm board-admin` reads it again for each)."""
    start = jst_now() - timedelta(seconds=count)
    opened_at = start
    service = PostingService(app.store, clock=lambda: opened_at)
    keys = []
    for n in range(count):
        opened_at = start + timedelta(seconds=n)
        outcome = service.write(WriteForm("bench", None, "", "", "ダイスはこちら", f"スレ{n}"), ADMIN_CLIENT)
        assert isinstance(outcome, Written), outcome
        keys.append(outcome.key)
    return keys


def write_config(
    path: Path, origin: str, keys: list[str], interval: float, database: Path, **bot: int | None
) -> None:
    lines = ["[bot]", f'name = "{BOT_NAME}"', f'database = "{database}"']
    lines += [f"{key} = {value}" for key, value in bot.items() if value is not None] + [""]
    for index, key in enumerate(keys):
        lines += [
            "[[game]]",
            f'id = "g{index}"',
            'rules = "dice"',
            f'thread = "{origin}/test/read.cgi/bench/{key}/"',
            f"poll_seconds = {interval}",
            f"idle_seconds = {interval}",
            "open_table = true",  # no GM: a dice thread anyone plays (threadgm run refuses it otherwise)
            "",
        ]
    path.write_text("\n".join(lines), "utf-8")


def window(counting: Counting, pid: int, seconds: float) -> dict[str, float]:
    """What the bot did over `seconds` from now."""
    with counting.lock:
        start_polls = len(counting.polls)
    cpu, board_cpu, started = cpu_seconds(pid), time.process_time(), time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    board_cpu = time.process_time() - board_cpu
    with counting.lock:
        polls = counting.polls[start_polls:]
    return {
        "polls_per_second": len(polls) / elapsed,
        "cpu_percent": 100 * (cpu_seconds(pid) - cpu) / elapsed,
        "board_cpu_percent": 100 * board_cpu / elapsed,
        "rss_mb": rss_mb(pid),
        "bytes_per_poll": statistics.mean(p[1] for p in polls) if polls else 0.0,
        "connections_per_poll": len({p[2] for p in polls}) / len(polls) if polls else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench scale")
    parser.add_argument("threads", nargs="?", type=int, default=200)
    parser.add_argument("--interval", type=float, default=2.0, help="each game's poll interval (s)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each measured window")
    parser.add_argument("--rate", type=float, default=2.0, help="players' posts a second under load")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="the threadgm checkout to run the bot from"
    )
    parser.add_argument("--workers", type=int, help="[bot] workers (default: the bot's)")
    parser.add_argument("--per-host", type=int, help="[bot] per_host (default: the bot's)")
    args = parser.parse_args(argv or [])
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp), args)


def run(tmp: Path, args: argparse.Namespace) -> None:
    data = tmp / "board"
    app = make_app(data, ["bench"], defaults=LOCAL_PLAY)
    opening = time.monotonic()
    keys = open_threads(app, args.threads)
    print(f"{args.threads} threads opened on the board in {time.monotonic() - opening:.1f} s")
    counting = Counting(app)
    server = BoardServer(counting).start()
    config = tmp / "bot.toml"
    write_config(
        config,
        server.url,
        keys,
        args.interval,
        tmp / "bot.sqlite",
        workers=args.workers,
        per_host=args.per_host,
    )
    log = (tmp / "bot.log").open("wb")
    started = time.monotonic()
    bot = subprocess.Popen(
        [sys.executable, "-m", "scheduler", "run", str(config)],
        cwd=args.checkout,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(args.checkout)},
    )
    try:
        deadline = started + max(300.0, args.threads * 0.5)
        while len(counting.online) < args.threads and time.monotonic() < deadline and bot.poll() is None:
            time.sleep(0.5)
        online = time.monotonic() - started
        print(
            f"bot from {args.checkout}: {len(counting.online)}/{args.threads} games online after {online:.1f} s"
        )
        if bot.poll() is not None:
            raise SystemExit(
                f"the bot stopped (exit {bot.returncode}): {(tmp / 'bot.log').read_text()[-800:]}"
            )
        time.sleep(args.interval * 2)  # past the first reads of the bot's own openings
        idle = window(counting, bot.pid, args.seconds)
        latencies, unanswered = load(app, counting, bot.pid, keys, args)
    finally:
        bot.terminate()
        bot.wait(60)
        server.close()
    configured = args.threads / args.interval
    in_flight = f"workers {args.workers or 'default'}, per_host {args.per_host or 'default'}"
    print(
        f"configured polls/s: {configured:.1f} ({args.threads} threads every {args.interval:g} s; {in_flight})"
    )
    print(
        f"{'':18}{'polls/s':>9}{'of conf.':>9}{'CPU %':>8}{'RSS MB':>8}{'B/poll':>8}{'conn/poll':>10}"
        f"{'board CPU %':>12}"
    )
    for name, row in (("idle", idle), (f"{args.rate:g} posts/s", latencies["window"])):
        print(
            f"{name:18}{row['polls_per_second']:9.1f}{100 * row['polls_per_second'] / configured:8.1f}%"
            f"{row['cpu_percent']:8.1f}{row['rss_mb']:8.1f}{row['bytes_per_poll']:8.0f}"
            f"{row['connections_per_poll']:10.4f}{row['board_cpu_percent']:12.1f}"
        )
    seconds = latencies["seconds"]
    if seconds:
        p50, p95 = statistics.median(seconds), sorted(seconds)[int(0.95 * (len(seconds) - 1))]
        print(
            f"post → answer: p50 {p50:.2f} s, p95 {p95:.2f} s over {len(seconds)} posts "
            f"(target p95 ≤ interval + 1 = {args.interval + 1:g} s); unanswered: {unanswered}"
        )


def load(app, counting: Counting, pid: int, keys: list[str], args: argparse.Namespace):
    """Players post at the rate while the window is measured; then the answers are waited for."""
    posted: dict[tuple[str, int], float] = {}
    stop = threading.Event()
    rng = random.Random(0)

    def players() -> None:
        n = 0
        while not stop.is_set():
            key = rng.choice(keys)
            client = Client(f"192.0.2.{n % 200 + 1}", {"NAME": "", "MAIL": ""})
            outcome = app.posting.write(WriteForm("bench", key, "", "", "dice1d6="), client)
            number = getattr(outcome, "number", None)
            if number is not None:
                posted[key, number] = time.monotonic()
            n += 1
            stop.wait(1 / args.rate)

    writer = threading.Thread(target=players, daemon=True)
    writer.start()
    row = window(counting, pid, args.seconds)
    stop.set()
    writer.join()
    time.sleep(args.interval + 5)
    with counting.lock:
        answers = dict(counting.answers)
    seconds = [answers[post] - at for post, at in posted.items() if post in answers]
    return {"window": row, "seconds": seconds}, len(posted) - len(seconds)
