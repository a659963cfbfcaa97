"""Memory: what the bot holds while it works, and what it leaves on disk.

- the idle bot on 10 dice threads (`threadgm run`, a process of its own, polling every 2 s over
  plain http): its RSS once every game has posted its opening, and after a restart with nothing to
  answer (a bot that only reads loads no requests, no BeautifulSoup, no web stack; a bot with no
  game on the clock, no APScheduler); `--checkout PATH` runs it from another checkout, `--idle`
  measures it alone. The project's own modules are compiled from source at each start when the
  environment sets PYTHONDONTWRITEBYTECODE and no `__pycache__` is there (about 0.6 MiB more);
- the bot catching up on a 900-post thread in one poll (900 new posts, 90 dice commands among them,
  all answered, several to a post): Python's peak allocation during that poll (tracemalloc), the process's peak RSS,
  and the SQLite store's size afterwards;
- one naval period of 10,000 orders on 2,000 islands, and one whole 47-prefecture battle royale:
  peak allocation while resolving.

tracemalloc slows Python down several times, so no time is printed here; the speed benchmarks run
without it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bench.bench_naval import orders_text, scenario
from bench.bench_scale import ROOT, Counting, open_threads, rss_mb, write_config
from board.admin import open_thread
from board.posting import JST, Client, WriteForm
from board.server import BoardServer, make_app
from engine.rng import SeededSource
from engine.rules import REGISTRY, naval
from engine.rules import battle_royale as br
from engine.rules.naval.grammar import parse_orders_file
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.fetch import make_session
from store.db import Store

POSTS = 900
PLAYER = Client("192.0.2.60", {"NAME": "", "MAIL": ""})
MiB = 1024 * 1024


def peak_of(action: Callable[[], object]) -> tuple[object, int]:
    """What `action` returns, and the peak of Python allocations while it ran, in bytes."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        result = action()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


IDLE_THREADS = 10
IDLE_POLL = 2.0  # seconds: a few polls of every game within the measured wait


def idle_bot(checkout: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app = make_app(data / "board", ["bench"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
        keys = open_threads(app, IDLE_THREADS)
        counting = Counting(app)
        with BoardServer(counting) as server:
            config = data / "bot.toml"
            write_config(config, server.url, keys, IDLE_POLL, data / "bot.sqlite")
            posted = _bot_rss(checkout, config, counting, data / "bot.log", until_online=True)
            restarted = _bot_rss(checkout, config, counting, data / "bot.log", until_online=False)
    print(
        f"idle bot, {IDLE_THREADS} threads polled every {IDLE_POLL:g} s (from {checkout}): "
        f"RSS {posted:.1f} MiB once it has posted its openings, "
        f"{restarted:.1f} MiB restarted with nothing to post"
    )


def _bot_rss(checkout: Path, config: Path, counting: Counting, log: Path, *, until_online: bool) -> float:
    """The bot's RSS after its games are online (or, restarted, after its first polls) and five
    polls of every game more."""
    with log.open("ab") as out:
        bot = subprocess.Popen(
            [sys.executable, "-m", "scheduler", "run", str(config)],
            cwd=checkout,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(checkout)},
        )
    try:
        deadline = time.monotonic() + 120
        with counting.lock:
            polls = len(counting.polls)
        while time.monotonic() < deadline and bot.poll() is None:
            with counting.lock:
                online = len(counting.online) >= IDLE_THREADS
                polled = len(counting.polls) - polls >= IDLE_THREADS
            if (online if until_online else polled):
                break
            time.sleep(0.2)
        time.sleep(5 * IDLE_POLL)
        if bot.poll() is not None:
            raise SystemExit(f"the bot stopped (exit {bot.returncode}): {log.read_text()[-800:]}")
        return rss_mb(bot.pid)
    finally:
        bot.terminate()
        bot.wait(60)


def bot_catch_up() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app = make_app(data / "board", ["bench"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
        with BoardServer(app) as server:
            key = open_thread(data / "board", "bench", "千レスのスレ", "ダイスどうぞ")
            url = f"{server.url}/test/read.cgi/bench/{key}/"
            store = Store(data / "bot.sqlite")
            game = GameConfig("bench", "dice", url)
            bot = ThreadBot(
                game,
                BotConfig(name="ベンチ#bench-mem"),
                store,
                make_session(),
                lambda: datetime.now(JST),
                registry=REGISTRY,
            )
            bot.tick()  # joins: the commitment post
            for n in range(POSTS):
                message = f"dice2d6= {n}番" if n % 10 == 0 else f"{n}番目の雑談です。" * 3
                app.posting.write(WriteForm("bench", key, "", "", message), PLAYER)
            before = rss_mib()
            result, peak = peak_of(bot.tick)
            answers = store.db["outbox"].count_where("state = 'sent'")
            dat = (data / "board" / "bench" / "dat" / f"{key}.dat").read_text("cp932")
            answered = sum(line.count("&gt;&gt;") for line in dat.splitlines() if "◆" in line)
            size = sum(f.stat().st_size for f in data.glob("bot.sqlite*"))
            print(
                f"bot, one poll reading {POSTS} new posts and answering {answered} dice posts "
                f"in {answers - 1} posts: "
                f"peak Python allocation {peak / MiB:.1f} MiB, process peak RSS {rss_mib():.0f} MiB "
                f"(was {before:.0f}); store {size / 1024:.0f} KiB on disk"
            )
            assert result.read == "new", result


def naval_period() -> None:
    state = naval.initial_state(scenario())
    orders = parse_orders_file(orders_text())
    resolution, peak = peak_of(lambda: naval.resolve_period(state, orders, SeededSource(b"bench-naval" * 3)))
    print(
        f"naval, one period of {len(orders)} orders on {len(state.islands)} islands "
        f"({len(resolution.results)} results): peak {peak / MiB:.1f} MiB"
    )


def battle_royale_game() -> None:
    def play() -> int:
        state = br.initial_state(br.default_scenario())
        source = SeededSource(b"bench-memory-br" * 2)
        steps = 0
        while br.next_die(state) is not None:
            state, *_ = br.play_step(state, source)
            steps += 1
        return steps

    steps, peak = peak_of(play)
    print(f"battle royale, one 47-prefecture game ({steps} dice): peak {peak / MiB:.1f} MiB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench memory")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="the threadgm checkout to run the idle bot from"
    )
    parser.add_argument("--idle", action="store_true", help="measure the idle bot alone")
    args = parser.parse_args(argv or [])
    idle_bot(args.checkout)
    if args.idle:
        return
    bot_catch_up()
    naval_period()
    battle_royale_game()


if __name__ == "__main__":
    main()
