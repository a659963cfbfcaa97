"""A board that misbehaves at random — errors before and after it writes, cut and lost answers, pages
nobody expects, redirects, lying thread lists, answers re-encoded or with a stray byte on the way —
and a bot that must still answer every command exactly once, never answer itself, and post every
day's commitment.

Seeded: a failing run names its seed and replays the same way. Faults hit only the bot's requests.
Reads also get pages with status 200 that are not the thread (a maintenance page, a captive portal,
an empty body), redirects to a portal or to an archive, a passing 404 with a thread list that is not
the board's, and answers re-encoded in another charset (or, for a 206, one byte more than its
Content-Range says): taken as the thread they would lose or invent posts, so they must be faults.
Writes also get a 302 to a portal (the post never reached the board) and a 302 to the thread after
the board wrote it: neither is the board's success answer, so each is looked for in the thread. And
the board lies both ways: 書きこみました for a post it never wrote (the thread must show it, else it is
sent again), and a samba error for a post it did write (looked for before it is sent again).

Every dialect and reading mode: 2ch dat, 2ch read.cgi, したらば rawmode, したらば read.cgi. CI plays four
seeds of each; `THREADGM_CHAOS_SEEDS=30` plays more (each takes about 5 s), and
`THREADGM_CHAOS_REPORT=FILE` writes each game's counts there (one JSON line per game).
"""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from werkzeug.wrappers import Response

import poster.writer
import scraper.fetch
from engine.dice.disclosure import HASH_LABEL
from engine.keys import day_of, next_day
from tests.bot_harness import BOT_TRIP
from tests.test_scheduler_faults import Clock, make_bot

SEEDS = int(os.environ.get("THREADGM_CHAOS_SEEDS", "4"))
GARBAGE = "<html><head><title>メンテナンス中</title></head><body>しばらくお待ちください</body></html>"
# A maintenance page and a captive portal as a proxy or a hotel network gives them, with status 200
# and lines enough to pass for posts if they were taken as the dat.
MAINTENANCE_200 = "<html>\n<head><title>メンテナンス中</title></head>\n<body>\nただいまメンテナンス中です\n</body>\n</html>\n"
PORTAL = "<!DOCTYPE html>\n<html><body>\n<form action='/login'>ご利用にはログインが必要です</form>\n</body></html>\n"
PORTAL_URL = "http://portal.example/login"
SUCCESS = "<html><head><title>書きこみました。</title></head><body>書きこみが終わりました。</body></html>"
SAMBA = (
    "<html><head><title>ＥＲＲＯＲ！</title></head><body><!-- 2ch_X:error -->"
    "ＥＲＲＯＲ - 593 10 sec たたないと書けません。(1回目、0 sec しかたってない)</body></html>"
)
# (path of reads, path of writes, path of the thread list, the board's charset, another one)
DIALECTS = {
    "2ch": ("/test/dat/", "/test/bbs.cgi", "/test/subject.txt", "cp932"),
    "2ch read.cgi": ("/test/read.cgi/", "/test/bbs.cgi", "/test/subject.txt", "cp932"),
    "shitaraba": ("/bbs/rawmode.cgi/", "/bbs/write.cgi/", "/local/test/subject.txt", "euc_jp"),
    "shitaraba read.cgi": ("/bbs/read.cgi/", "/bbs/write.cgi/", "/local/test/subject.txt", "euc_jp"),
}


def from_bot(request) -> bool:
    encoding = "cp932" if request.path.startswith("/test/") else "euc_jp"
    form = dict(parse_qsl(request.get_data().decode("ascii"), encoding=encoding))
    return "#threadgm-test-bot" in form.get("FROM", form.get("NAME", ""))


class Chaos:
    """What the board does to each of the bot's requests, drawn from a seeded RNG."""

    def __init__(self, seed: int, charset: str, thread_path: str) -> None:
        self.rng = random.Random(seed)
        self.charset = charset
        self.thread_path = thread_path
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

    def randint(self, low: int, high: int) -> int:
        with self.lock:
            return self.rng.randint(low, high)

    def read(self, request, forward) -> Response:
        kind = self.draw(
            [
                ("500", 0.08),
                ("cut", 0.08),
                ("maintenance page", 0.03),
                ("maintenance page 200", 0.03),
                ("captive portal", 0.03),
                ("empty 200", 0.03),
                ("slow", 0.03),
                ("302 to a portal", 0.03),
                ("302 to the archive", 0.02),
                ("passing 404", 0.03),
                ("re-encoded UTF-8", 0.04),
                ("re-encoded", 0.04),
                ("stray byte", 0.04),
            ]
        )
        if kind == "500":
            return Response(b"Internal Server Error", status=500)
        if kind == "maintenance page":
            return Response(GARBAGE.encode("cp932"), status=503, content_type="text/html")
        if kind in ("maintenance page 200", "captive portal", "empty 200"):
            page = {"maintenance page 200": MAINTENANCE_200, "captive portal": PORTAL}.get(kind, "")
            return Response(page.encode("cp932"), content_type="text/html")
        if kind in ("302 to a portal", "302 to the archive"):
            where = PORTAL_URL if kind == "302 to a portal" else "/test/kako/1796/1796000000.dat"
            return Response(status=302, headers={"Location": where})
        if kind == "passing 404":
            return Response(b"Not Found", status=404)
        answer = forward()
        data = answer.get_data()
        if answer.status_code not in (200, 206) or not data:
            return answer
        if kind == "cut" and len(data) > 8:
            answer.set_data(data[: self.randint(len(data) // 2, len(data) - 1)])  # inside a line, a tag
        elif kind.startswith("re-encoded"):
            other = (
                "utf-8" if kind.endswith("UTF-8") else {"cp932": "euc_jp", "euc_jp": "cp932"}[self.charset]
            )
            answer.set_data(data.decode(self.charset, "replace").encode(other, "replace"))
        elif kind == "stray byte" and answer.status_code == 206:
            at = self.randint(0, len(data))
            answer.set_data(data[:at] + bytes([self.randint(0x21, 0xFC)]) + data[at:])
        if kind == "slow":
            threading.Event().wait(0.6)  # longer than the bot's read timeout
        return answer

    def subject(self, request, forward) -> Response:
        """The thread list: the board's, or a page, an empty answer or a list that is not this board's."""
        kind = self.draw([("empty list", 0.15), ("maintenance list", 0.15), ("stranger list", 0.2)])
        if kind == "empty list":
            return Response(b"", content_type="text/plain")
        if kind == "maintenance list":
            return Response(MAINTENANCE_200.encode("cp932"), content_type="text/plain")
        if kind == "stranger list":
            if request.path.startswith("/local/"):
                return Response(b"1111111111.cgi,other(1)\n" * 2, content_type="text/plain")
            return Response(b"1111111111.dat<>other (1)\n", content_type="text/plain")
        return forward()

    def write(self, request, forward) -> Response:
        kind = self.draw(
            [
                ("500 unwritten", 0.08),
                ("504 after writing", 0.08),
                ("lost answer", 0.05),
                ("odd page", 0.05),
                ("302 to a portal, unwritten", 0.05),
                ("302 to the thread after writing", 0.05),
                ("success, unwritten", 0.04),
                ("samba error after writing", 0.04),
            ]
        )
        if kind == "500 unwritten":
            return Response(b"Internal Server Error", status=500)
        if kind == "302 to a portal, unwritten":
            return Response(status=302, headers={"Location": PORTAL_URL})
        if kind == "success, unwritten":
            return Response(SUCCESS.encode(self.charset), content_type="text/html")
        answer = forward()
        if kind == "samba error after writing":
            return Response(SAMBA.encode(self.charset), content_type="text/html")
        if kind == "504 after writing":
            return Response(b"Gateway Timeout", status=504)
        if kind == "lost answer":
            threading.Event().wait(0.6)  # the board wrote it; the answer never comes in time
        if kind == "odd page":
            return Response(GARBAGE.encode("cp932"), content_type="text/html")
        if kind == "302 to the thread after writing":
            return Response(status=302, headers={"Location": self.thread_path})
        return answer


def play(board, tmp_path: Path, monkeypatch, seed: int, mode: str) -> dict[str, object]:
    """One seeded game on a misbehaving board; what a reader of the thread can count afterwards."""
    monkeypatch.setattr(scraper.fetch, "TIMEOUT", (2, 0.3))
    monkeypatch.setattr(poster.writer, "TIMEOUT", (2, 0.3))
    clock = Clock()
    started = clock()
    dialect = "shitaraba" if mode.startswith("shitaraba") else "2ch"
    reads, writes, lists, charset = DIALECTS[mode]
    chaos = Chaos(seed, charset, "/" + board.url(dialect).split("/", 3)[3])
    # the bot's first read must find the board (its list "as before" is read then): chaos after it
    chaos.on = False
    bot = make_bot(board, tmp_path, clock, dialect=dialect, read="html" if "read.cgi" in mode else "raw")
    chaos.on = True
    board.script.script("GET", reads, chaos.handled(chaos.read), times=None)
    board.script.script("GET", lists, chaos.handled(chaos.subject), times=None)
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
    for tick in range(60):  # the board behaves again: everything owed goes out
        clock.advance(61)
        bot.tick()
        chaos.settle()
        if tick >= 9 and not bot.store.owes(bot.thread_id):  # (a post the board said it wrote: shown)
            break
    posts = board.posts()
    own = {post.number for post in posts if post.trip == BOT_TRIP}
    days = sorted({day_of(started), next_day(day_of(started)), day_of(clock()), next_day(day_of(clock()))})
    bodies = [post.body for post in posts if post.number in own]
    return {
        "faults": chaos.faults,
        "answers": {number: len(board.replies_to(number)) for number in asked},
        "self answers": sorted(number for number in own if board.replies_to(number)),
        "commitments": {day: sum(f"{HASH_LABEL} {day}:" in body for body in bodies) for day in days},
        "status": bot.store.thread(bot.thread_id).status,
    }


def check(outcome: dict[str, object]) -> None:
    faults = outcome["faults"]
    assert len(faults) >= 10, faults
    wrong = {number: n for number, n in outcome["answers"].items() if n != 1}
    assert not wrong, f"answers per post {wrong}; faults {faults}"
    assert not outcome["self answers"], f"the bot answered its own posts {outcome['self answers']}; {faults}"
    assert set(outcome["commitments"].values()) == {1}, f"commitments {outcome['commitments']}; {faults}"
    assert outcome["status"] == "active", faults


@pytest.mark.parametrize("mode", list(DIALECTS))
@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
def test_every_command_is_answered_exactly_once_on_a_misbehaving_board(
    board, tmp_path: Path, monkeypatch, seed: int, mode: str
) -> None:
    outcome = play(board, tmp_path, monkeypatch, seed, mode)
    if report := os.environ.get("THREADGM_CHAOS_REPORT"):  # counts for a long run's notes
        with open(report, "a", encoding="utf-8") as out:
            out.write(json.dumps({"seed": seed, "mode": mode, **outcome}, ensure_ascii=False) + "\n")
    check(outcome)
