"""The exactly-once core as a state machine (Hypothesis): players write commands, the board fails in
every way a board fails — a 500 before writing, a 504 after writing, a lost answer, a samba refusal,
a cut or failed read — the clock moves, the bot crashes and restarts on its database, the thread
fills and the game rolls over to the next part; in any interleaving of these:

- no command is ever answered twice, and the bot never answers itself;
- the answers to one thread's commands come in the order the commands were written;
- the bot never trips the board's samba (it paces itself by the board's own number);
- an answer goes to the thread of its command, or — once that thread is full — to the next part,
  pointing back at the command by its full address;
- once the board behaves and time passes, every command has exactly one answer.

The board is the real local board over HTTP; the clock is the test's, shared by board and bot.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from werkzeug.wrappers import Response

import poster.writer
from engine.keys import JST
from engine.rules import REGISTRY
from poster.pacing import DEFAULT_SECONDS, MARGIN_SECONDS, Pacer
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.dat import parse_dat
from scraper.fetch import make_session
from scraper.refs import ThreadRef
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.scripted import Rule
from tests.test_scheduler_chaos import from_bot

SAMBA = 4  # the board's BBS_SAMBATIME
THREAD_STOP = 24  # posts a part takes: small, so that a run of commands fills a part or two
ERROR_593 = (
    "<html><title>ＥＲＲＯＲ！</title><!-- 2ch_X:error -->"
    "ＥＲＲＯＲ - 593 {0} sec たたないと書けません。(1回目、1 sec しかたってない)</html>"
)
ANSWER_HEAD = re.compile(r"^(?:>>(\d+)|前スレ (\S+?/)(\d+))(?:（続き）)?$")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 20, 0, tzinfo=JST)

    def __call__(self) -> datetime:
        return self.now


class ExactlyOnce(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="threadgm-once-"))
        self.clock = Clock()
        self.board = LocalBoard.start(
            self.tmp / "board",
            clock=self.clock,
            apart=True,
            BBS_SAMBATIME=str(SAMBA),
            BBS_THREAD_STOP=str(THREAD_STOP),
        )
        self.refusals: list[str] = []  # samba refusals the board itself gave (never a scripted one)
        self.board.script.rules.append(Rule("POST", "/test/bbs.cgi", self._watch_samba, None))
        self.game = GameConfig("g", "dice", self.board.url(), rollover_at=3)
        self.store = Store(self.tmp / "bot.sqlite")
        self.bot = self._bot()
        self.bot.tick()  # joins: the commitment post
        self.commands: dict[tuple[str, int], int] = {}  # (thread key, post) → order written
        self.parts: list[str] = []
        self.players = 0

    # -- the world ----------------------------------------------------------------------------------

    def _bot(self) -> ThreadBot:
        """The bot as a (re)started process makes it: its pace remembered from the store, as Runner does."""
        pacer = Pacer(DEFAULT_SECONDS, MARGIN_SECONDS)
        for thread_id, sent_at in self.store.last_sent():
            pacer.remember(ThreadRef.from_url(thread_id).origin, datetime.fromisoformat(sent_at))
        return ThreadBot(
            self.game,
            BotConfig(name=BOT_NAME),
            self.store,
            make_session(),
            self.clock,
            pacer,
            registry=REGISTRY,
        )

    def _watch_samba(self, request, forward) -> Response:
        answer = forward()
        text = answer.get_data().decode("cp932", errors="replace")
        if "593" in text and "たたないと書けません" in text:
            said = re.search(r"ＥＲＲＯＲ - 593[^<]*", text)
            self.refusals.append(f"{self.clock.now:%H:%M:%S}: {said[0] if said else text[:200]}")
        return answer

    def _fault(self, method: str, prefix: str, handler) -> None:
        """The bot's next such request answered by `handler` (ahead of the samba watch)."""
        with self.board.script.lock:
            self.board.script.rules.insert(0, Rule(method, prefix, handler, 1, from_bot))

    def _threads(self) -> list[str]:
        """The game's parts in the order they were opened (keys need not grow: a key is a time)."""
        if not self.parts or self.bot.ref.key != self.parts[-1]:
            self.parts.append(self.bot.ref.key)
        on_board = {path.stem for path in (self.board.data / "test" / "dat").glob("*.dat")}
        assert on_board == set(self.parts), f"threads the game never moved to: {on_board - set(self.parts)}"
        return list(self.parts)

    def _posts(self, key: str):
        return parse_dat((self.board.data / "test" / "dat" / f"{key}.dat").read_bytes().decode("cp932"))

    def _answers(self) -> list[tuple[str, str, int]]:
        """Every answer the bot posted: (thread it stands in, thread of the command, post number)."""
        urls = {self.board.url().replace(self.board.key, key): key for key in self._threads()}
        found = []
        for key in self._threads():
            for post in self._posts(key):
                if post.trip != BOT_TRIP:
                    continue
                for chunk in post.body.split("\n\n"):
                    match = ANSWER_HEAD.match(chunk.partition("\n")[0])
                    if match and "（続き）" not in chunk.partition("\n")[0]:
                        if match[1]:
                            found.append((key, key, int(match[1])))
                        else:
                            found.append((key, urls.get(match[2], match[2]), int(match[3])))
        return found

    def _dump(self) -> str:
        return "\n".join(
            f"== {key} #{post.number} {post.name}: {post.body[:160]!r}"
            for key in self._threads()
            for post in self._posts(key)
        )

    # -- what happens -------------------------------------------------------------------------------

    @rule(count=st.integers(1, 3))
    def players_write(self, count: int) -> None:
        """Players (each from an address of their own) write commands in the game's current part."""
        key = self.bot.ref.key
        if len(self._posts(key)) >= THREAD_STOP:
            return  # the part is full: players wait for the bot to open the next one
        self.board.key = key
        for _ in range(count):
            if len(self._posts(key)) >= THREAD_STOP:
                break
            self.players += 1
            number = self.board.post("dice1d6=", name=f"プレイヤー{self.players}")
            self.commands[(key, number)] = len(self.commands)
            self.clock.now += timedelta(seconds=1)

    @rule()
    def poll(self) -> None:
        self.bot.tick()

    @rule(seconds=st.sampled_from([1, 2, 5, 12, 25]))
    def time_passes(self, seconds: int) -> None:
        self.clock.now += timedelta(seconds=seconds)

    @rule(kind=st.sampled_from(["500 unwritten", "504 after writing", "lost answer", "593", "302 portal"]))
    def the_next_post_fails(self, kind: str) -> None:
        def fail(request, forward) -> Response:
            if kind == "500 unwritten":
                return Response(b"Internal Server Error", status=500)
            if kind == "593":
                return Response(ERROR_593.format(SAMBA).encode("cp932"))
            if kind == "302 portal":
                return Response(b"", status=302, headers={"Location": "http://portal.example/login"})
            written = forward()
            if kind == "lost answer":
                threading.Event().wait(0.4)  # the board wrote it; the answer is too late for the bot
            return Response(b"Gateway Timeout", status=504) if kind == "504 after writing" else written

        self._fault("POST", "/test/bbs.cgi", fail)

    @rule(kind=st.sampled_from(["500", "cut"]))
    def the_next_read_fails(self, kind: str) -> None:
        def fail(request, forward) -> Response:
            if kind == "500":
                return Response(b"Internal Server Error", status=500)
            answer = forward()
            data = answer.get_data()
            if answer.status_code in (200, 206) and len(data) > 4:
                answer.set_data(data[: len(data) * 2 // 3])
            return answer

        self._fault("GET", "/test/dat/", fail)

    @rule()
    def the_bot_crashes_and_restarts(self) -> None:
        self.store.close()
        self.store = Store(self.tmp / "bot.sqlite")
        self.bot = self._bot()

    # -- what always holds --------------------------------------------------------------------------

    @invariant()
    def never_twice_never_itself_in_order_and_never_past_samba(self) -> None:
        answers = self._answers()
        targets = [(thread, number) for _, thread, number in answers]
        assert len(targets) == len(set(targets)), f"answered twice: {sorted(targets)}"
        assert set(targets) <= set(self.commands), "an answer to a post that holds no command"
        for key in self._threads():
            own = [self.commands[(thread, n)] for _, thread, n in answers if thread == key]
            assert own == sorted(own), f"answers out of order in {key}: {own}\n{self._dump()}"
        parts = self._threads()
        for where, thread, _ in answers:
            assert parts.index(where) >= parts.index(thread), "an answer went to an older part"
        assert self.refusals == [], self.refusals

    def teardown(self) -> None:
        try:
            with self.board.script.lock:  # the board behaves from now on
                self.board.script.rules[:] = [r for r in self.board.script.rules if r.times is None]
            for _ in range(60):
                if len(self._answers()) == len(self.commands):
                    break
                self.clock.now += timedelta(seconds=SAMBA + 2)
                self.bot.tick()
            answered = sorted((thread, number) for _, thread, number in self._answers())
            assert answered == sorted(self.commands), "a command was never answered"
            self.never_twice_never_itself_in_order_and_never_past_samba()
        finally:
            self.board.close()
            self.store.close()
            shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(autouse=True)
def quick_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(poster.writer, "TIMEOUT", (2, 0.25))  # a lost answer is lost within a step


# CI runs a fixed dozen runs of 25 steps (about 15 s); THREADGM_MACHINE_RUNS=200 explores more, at random.
RUNS = int(os.environ.get("THREADGM_MACHINE_RUNS", "12"))
ExactlyOnce.TestCase.settings = settings(
    max_examples=RUNS,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize="THREADGM_MACHINE_RUNS" not in os.environ,
    phases=[
        Phase.explicit,
        Phase.generate,
    ],  # a failing run prints its steps; shrinking real HTTP takes minutes
)
test_exactly_once = ExactlyOnce.TestCase
