"""The poll loop: a poll that runs long delays no other poll beyond the pool's size, and no poll is
ever dropped — late, it runs once; a host's limit holds its polls back, not the others'."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter

import pytest

from bot.loop import PollLoop


def wait_until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


@pytest.fixture
def loop():
    running = PollLoop(workers=2, per_host=1)
    yield running
    running.stop()


def test_every_due_poll_runs_while_another_runs_long(loop: PollLoop) -> None:
    counts: Counter[str] = Counter()
    release = threading.Event()

    def slow(due: float, started: float) -> float:
        counts["slow"] += 1
        release.wait(5)
        return time.monotonic() + 60

    def quick(key: str):
        def poll(due: float, started: float) -> float:
            counts[key] += 1
            return due + 0.02

        return poll

    loop.add("slow", "http://a", slow)
    loop.add("quick", "http://b", quick("quick"))
    loop.start()
    wait_until(lambda: counts["quick"] >= 20)  # ran on while `slow` held a worker
    release.set()
    assert counts["slow"] == 1


def test_a_poll_that_comes_due_many_times_while_held_back_runs_once_late(loop: PollLoop) -> None:
    runs: list[tuple[float, float]] = []  # (due, started)
    release = threading.Event()

    def blocker(due: float, started: float) -> float:
        release.wait(5)
        return time.monotonic() + 60

    def same_host(due: float, started: float) -> float:
        runs.append((started, time.monotonic()))
        return started + 0.01  # due every 10 ms: twenty times over while the host is busy

    loop.add("blocker", "http://a", blocker)
    loop.start()
    time.sleep(0.05)
    loop.add("same", "http://a", same_host)  # one poll per host: it must wait for `blocker`
    time.sleep(0.2)
    assert runs == []
    release.set()
    wait_until(lambda: len(runs) >= 5)
    assert loop.stats.late_percentile(1.0) >= 0.15  # the held poll ran, late
    # and was not made up for: it was told when it started, and each next run came an interval later
    assert all(abs(told - started) < 0.05 for told, started in runs)
    assert all(b - a >= 0.01 for (a, _), (b, _) in itertools.pairwise(runs))


def test_a_start_with_many_games_polls_none_above_its_rate() -> None:
    """A backlog at start-up (every game due at once, more work than one interval holds) is worked
    off once: no game polls again sooner than its interval after the poll that ran late."""
    interval, games = 0.05, 60
    starts: dict[str, list[float]] = {f"g{n}": [] for n in range(games)}

    def game(key: str):
        def poll(due: float, started: float) -> float:
            starts[key].append(time.monotonic())
            if len(starts[key]) == 1:  # the first read is the long one (the whole dat): 60 × 5 ms
                time.sleep(0.005)  # on 2 workers is 150 ms, three intervals' worth
            return started + interval

        return poll

    loop = PollLoop(workers=2, per_host=2)
    for key in starts:
        loop.add(key, f"http://{key}", game(key))
    loop.start()
    try:
        wait_until(lambda: all(len(runs) >= 4 for runs in starts.values()))
    finally:
        loop.stop()
    gaps = [b - a for runs in starts.values() for a, b in itertools.pairwise(runs)]
    assert min(gaps) >= interval / 2, f"a poll ran {min(gaps) * 1000:.1f} ms after the one before"


def test_polls_held_back_by_their_host_are_each_looked_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game of one board due at once, one poll of the host at a time: each held poll is taken
    off the heap once and put back once when its turn comes — not gone through again on every turn
    of the loop (5,000 games on one board made that the bot's main work)."""
    import heapq

    pops = Counter()

    def counted_pop(heap: list) -> object:
        pops["pop"] += 1
        return heapq.heappop(heap)

    monkeypatch.setattr(
        "bot.loop.heapq",
        type("Heap", (), {"heappush": staticmethod(heapq.heappush), "heappop": staticmethod(counted_pop)}),
    )
    games, polled = 400, Counter()
    other = threading.Event()

    def poll(key: str):
        def run(due: float, started: float) -> float:
            polled[key] += 1
            return started + 3600

        return run

    loop = PollLoop(workers=4, per_host=1)
    for n in range(games):
        loop.add(f"g{n}", "http://one-board", poll(f"g{n}"))
    loop.add("elsewhere", "http://other-board", lambda due, started: (other.set(), started + 3600)[1])
    loop.start()
    try:
        wait_until(lambda: len(polled) == games and other.is_set())
    finally:
        loop.stop()
    assert all(count == 1 for count in polled.values())
    assert pops["pop"] <= 2 * (games + 1) + 10, pops["pop"]  # the old loop: ~games² / 2


def test_a_wake_runs_the_poll_now_and_again_after_one_in_flight(loop: PollLoop) -> None:
    runs: list[float] = []
    entered = threading.Event()
    release = threading.Event()

    def poll(due: float, started: float) -> float:
        runs.append(time.monotonic())
        if len(runs) == 2:
            entered.set()
            release.wait(5)
        return time.monotonic() + 3600

    loop.add("g", "http://a", poll)
    loop.start()
    wait_until(lambda: len(runs) == 1)
    loop.wake("g")  # a deadline: now, not in an hour
    assert entered.wait(2)
    loop.wake("g")  # while it runs: once more, right after
    release.set()
    wait_until(lambda: len(runs) == 3)


def test_a_failing_poll_is_logged_and_tried_again(loop: PollLoop, caplog: pytest.LogCaptureFixture) -> None:
    import bot.loop

    calls: list[int] = []

    def poll(due: float, started: float) -> float:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug")
        return time.monotonic() + 3600

    bot.loop.RETRY_AFTER_FAILURE, saved = 0.01, bot.loop.RETRY_AFTER_FAILURE
    try:
        loop.add("g", "http://a", poll)
        loop.start()
        wait_until(lambda: len(calls) == 2)
    finally:
        bot.loop.RETRY_AFTER_FAILURE = saved
    assert "g: the poll failed" in caplog.text


def test_stop_waits_for_the_polls_in_flight() -> None:
    loop = PollLoop(workers=2)
    finished = threading.Event()

    def poll(due: float, started: float) -> float:
        time.sleep(0.1)
        finished.set()
        return time.monotonic() + 60

    loop.add("g", "http://a", poll)
    loop.start()
    time.sleep(0.02)
    loop.stop()
    assert finished.is_set()
