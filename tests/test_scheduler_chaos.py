"""A board that misbehaves at random — errors before and after it writes, cut and lost answers, pages
nobody expects — and a bot that must still answer every command exactly once.

Seeded: a failing run names its seed and replays the same way. Faults hit only the bot's requests.
Reads also get pages with status 200 that are not the thread (a maintenance page, a captive portal,
an empty body): taken as the thread they would lose posts, so they must be faults like a 500.
CI plays four seeds per way of reading; `THREADGM_CHAOS_SEEDS=40` plays more (each takes about 1.5 s).
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from werkzeug.wrappers import Response

import poster.writer
import scraper.fetch
from tests.test_scheduler_faults import Clock, make_bot

SEEDS = int(os.environ.get("THREADGM_CHAOS_SEEDS", "4"))
GARBAGE = "<html><head><title>メンテナンス中</title></head><body>しばらくお待ちください</body></html>"
# A maintenance page and a captive portal as a proxy or a hotel network gives them, with status 200
# and lines enough to pass for posts if they were taken as the dat.
MAINTENANCE_200 = "<html>\n<head><title>メンテナンス中</title></head>\n<body>\nただいまメンテナンス中です\n</body>\n</html>\n"
PORTAL = "<!DOCTYPE html>\n<html><body>\n<form action='/login'>ご利用にはログインが必要です</form>\n</body></html>\n"


def from_bot(request) -> bool:
    encoding = "cp932" if request.path.startswith("/test/") else "euc_jp"
    form = dict(parse_qsl(request.get_data().decode("ascii"), encoding=encoding))
    return "#threadgm-test-bot" in form.get("FROM", form.get("NAME", ""))


class Chaos:
    """What the board does to each of the bot's requests, drawn from a seeded RNG."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.on = True
        self.lock = threading.Lock()
        self.faults: list[str] = []
        self.busy = 0
        self.idle = threading.Condition(self.lock)

    def settle(self) -> None:
        """Wait for answers the bot gave up on: what the board does after that is real time, and the
        test's clock is not (the bot's own wait for a slow board is tested in tests/poster)."""
        with self.idle:
            assert self.idle.wait_for(lambda: self.busy == 0, timeout=10)

    def handled(self, handler):
        def run(request, forward) -> Response:
            with self.lock:
                self.busy += 1
            try:
                return handler(request, forward)
            finally:
                with self.idle:
                    self.busy -= 1
                    self.idle.notify_all()

        return run

    def draw(self, kinds: list[tuple[str, float]]) -> str:
        with self.lock:
            if not self.on:
                return "ok"
            roll, total = self.rng.random(), 0.0
            for kind, share in kinds:
                total += share
                if roll < total:
                    self.faults.append(kind)
                    return kind
            return "ok"

    def read(self, request, forward) -> Response:
        kind = self.draw(
            [
                ("500", 0.1),
                ("cut", 0.1),
                ("maintenance page", 0.04),
                ("maintenance page 200", 0.04),
                ("captive portal", 0.03),
                ("empty 200", 0.03),
                ("slow", 0.03),
            ]
        )
        if kind == "500":
            return Response(b"Internal Server Error", status=500)
        if kind == "maintenance page":
            return Response(GARBAGE.encode("cp932"), status=503, content_type="text/html")
        if kind in ("maintenance page 200", "captive portal", "empty 200"):
            page = {"maintenance page 200": MAINTENANCE_200, "captive portal": PORTAL}.get(kind, "")
            return Response(page.encode("cp932"), content_type="text/html")
        answer = forward()
        data = answer.get_data()
        if kind == "cut" and answer.status_code in (200, 206) and len(data) > 8:
            with self.lock:
                keep = self.rng.randint(len(data) // 2, len(data) - 1)
            answer.set_data(data[:keep])  # anywhere: inside a line, a post, a tag
        if kind == "slow":
            threading.Event().wait(0.6)  # longer than the bot's read timeout
        return answer

    def write(self, request, forward) -> Response:
        kind = self.draw(
            [("500 unwritten", 0.1), ("504 after writing", 0.1), ("lost answer", 0.05), ("odd page", 0.05)]
        )
        if kind == "500 unwritten":
            return Response(b"Internal Server Error", status=500)
        answer = forward()
        if kind == "504 after writing":
            return Response(b"Gateway Timeout", status=504)
        if kind == "lost answer":
            threading.Event().wait(0.6)  # the board wrote it; the answer never comes in time
        if kind == "odd page":
            return Response(GARBAGE.encode("cp932"), content_type="text/html")
        return answer


@pytest.mark.parametrize("dialect", ["2ch", "2ch read.cgi", "shitaraba"])
@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
def test_every_command_is_answered_exactly_once_on_a_misbehaving_board(
    board, tmp_path: Path, monkeypatch, seed: int, dialect: str
) -> None:
    monkeypatch.setattr(scraper.fetch, "TIMEOUT", (2, 0.3))
    monkeypatch.setattr(poster.writer, "TIMEOUT", (2, 0.3))
    clock = Clock()
    html = dialect == "2ch read.cgi"
    dialect = "2ch" if html else dialect
    bot = make_bot(board, tmp_path, clock, dialect=dialect, read="html" if html else "raw")
    chaos = Chaos(seed)
    if dialect == "2ch":
        reads, writes = ("/test/read.cgi/" if html else "/test/dat/"), "/test/bbs.cgi"
    else:
        reads, writes = "/bbs/rawmode.cgi/", "/bbs/write.cgi/"
    board.script.script("GET", reads, chaos.handled(chaos.read), times=None)
    board.script.script("POST", writes, chaos.handled(chaos.write), times=None, when=from_bot)
    rng = random.Random(seed)
    asked: list[int] = []
    for _ in range(40):
        for _ in range(rng.randint(0, 2)):
            asked.append(board.post(f"dice{rng.randint(1, 3)}d6= {len(asked)}", dialect=dialect))
        bot.tick()
        chaos.settle()
        clock.advance(rng.choice([5, 30, 61]))
    chaos.on = False
    for _ in range(8):  # the board behaves again: everything owed goes out
        clock.advance(61)
        bot.tick()
        chaos.settle()
    assert len(chaos.faults) >= 10, chaos.faults
    wrong = {number: n for number in asked if (n := len(board.replies_to(number))) != 1}
    assert not wrong, f"answers per post {wrong}; faults {chaos.faults}"
