"""A failing step is that post's problem, never the thread's: a game's code that raises on one post
answers that post with a short error and the poll goes on; a resolution that raises holds its period
until the GM changes something."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

import pytest

from engine import referee
from engine.clock.schedule import parse_schedule
from engine.referee import GameSetup, PostView, ThreadView
from engine.referee.isolation import INTERNAL_ERROR
from engine.referee.ledger import Outgoing
from engine.report import Report, line, report
from engine.rng import RandomSource
from engine.rules.guess.ruleset import GuessRuleset, GuessState
from engine.ruleset import ImmediateRuleset, Order, OrderText, Rejection
from poster.markup import PostLimits, render_posts
from store.changes import Log, MarkHandled, SaveOrders, SaveResolution
from store.db import PostRecord, Store

JST = datetime.fromisoformat("2026-12-01T20:00:00+09:00").tzinfo
START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
THREAD = ThreadView("local/test/1764590400", "1764590400", "http://127.0.0.1/test/read.cgi/test/1764590400/")
GM_TRIP = "GMGMGMGMGM"


class Poisoned(GuessRuleset):
    """数当て whose code fails where a test says: on 毒 in a line, on a guess of 13, at the update."""

    resolve_fails = False

    def parse_line(self, text: str) -> OrderText | Rejection | None:
        if "毒" in text:
            raise ValueError("invalid literal for int() with base 10: '፩'")
        return super().parse_line(text)

    def check(self, state: GuessState, order: Order) -> str | None:
        if order.command == 13:
            raise KeyError("13")
        return super().check(state, order)

    def resolve(self, state: GuessState, orders: Sequence[Order], source: RandomSource):
        if self.resolve_fails:
            raise ZeroDivisionError("division by zero")
        return super().resolve(state, orders, source)

    def set_value(self, state: GuessState, path: str, value):
        if value == "爆発":
            raise RuntimeError("unexpected")
        return super().set_value(state, path, value)


class Steps(ImmediateRuleset):
    """An immediate game that answers 足す N with the running total, and fails on 足す 0."""

    ID = "steps"
    NAME = "足し算"
    HELP = "足す N"

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        if not body.startswith("足す "):
            return None
        return OrderText(int(body[3:]), body)

    def initial_state(self, scenario) -> int:
        return 0

    def state_to_dict(self, state: int) -> dict:
        return {"total": state}

    def state_from_dict(self, data: dict) -> int:
        return data["total"]

    def apply(self, state: int, order: Order, source: RandomSource) -> tuple[int, Report]:
        total = state + 100 // order.command
        return total, report(line(f"合計 {total}"))


@pytest.fixture
def store() -> Store:
    db = Store(":memory:")
    db.ensure_thread(THREAD.id, THREAD.read_url, "2ch", "guess")
    db.game("guess", "guess", THREAD.id, START - timedelta(minutes=5), secret=bytes(32))
    yield db
    db.close()


def setup(ruleset=None, early: bool = False) -> GameSetup:
    ruleset = ruleset or Poisoned()
    schedule = None
    if not ruleset.immediate:
        times = {"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m", "early": early}
        schedule = parse_schedule(times)
    return GameSetup(
        "guess",
        ruleset,
        bytes(32),
        START - timedelta(minutes=5),
        scenario={"players": ["アリス", "ボブ"]},
        schedule=schedule,
        dice=False,
        gm_trips=(GM_TRIP,),
    )


def post(number: int, body: str, name: str = "アリス", minutes: int = 1, trip: str | None = None) -> PostView:
    return PostView(number, name, trip, START + timedelta(minutes=minutes), body)


def answers(decisions) -> dict[int, list[str]]:
    """Each post's answers as they would be posted (reply → the text under its anchor)."""
    found: dict[int, list[str]] = {}
    for change in decisions.changes:
        if not isinstance(change, Outgoing):
            continue
        for piece in change.reports:
            text = "\n".join(render_posts([piece], PostLimits(40, 4096, 512)))
            for number in piece.reply_to or (0,):
                found.setdefault(number, []).append(text)
    return found


def handled(decisions) -> list[int]:
    return [n for c in decisions.changes if isinstance(c, MarkHandled) for n in c.numbers]


def apply(store: Store, posts: list[PostView], decisions) -> None:
    records = [PostRecord(THREAD.id, p.number, p.name, p.trip, "", p.date, "", p.body) for p in posts]
    last = max((p.number for p in posts), default=1)
    store.record_fetch(
        THREAD.id,
        size=1,
        last_modified=None,
        last_number=last,
        posts=records,
        now=START,
        is_own=lambda r: False,
    )
    store.apply([c for c in decisions.changes if not isinstance(c, Outgoing)])


def test_a_post_whose_parse_raises_is_answered_with_an_error_and_the_next_post_normally(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    posts = [post(2, "＜予想＞毒"), post(3, "＜予想＞40", name="ボブ")]
    with caplog.at_level(logging.ERROR, "threadgm"):
        decided = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    said = answers(decided)
    assert any(INTERNAL_ERROR in text for text in said[2])
    assert "＞＞3 ＜予想＞40" in "\n".join(said[0]).replace(">>", "＞＞")  # the receipt, unaffected
    assert handled(decided) == [2, 3]
    saved = [row for c in decided.changes if isinstance(c, SaveOrders) for row in c.rows]
    assert [row.post for row in saved] == [3]
    failure = next(r for r in caplog.records if "post 2" in r.getMessage())
    assert failure.exc_info is not None and "ValueError" in caplog.text  # the traceback is logged


def test_a_stored_poison_post_trips_no_later_poll(store: Store) -> None:
    posts = [post(2, "＜予想＞毒"), post(3, "＜予想＞40", name="ボブ")]
    decided = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    apply(store, posts, decided)
    assert store.unhandled_posts(THREAD.id) == []
    at_deadline = referee.poll(setup(), THREAD, store, [], START + timedelta(hours=1, minutes=3))
    assert any(isinstance(c, SaveResolution) for c in at_deadline.changes)


def test_a_failing_check_undoes_that_post_alone(store: Store) -> None:
    posts = [post(2, "取消\n＜予想＞13"), post(3, "＜予想＞40", name="ボブ")]
    decided = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    said = answers(decided)
    assert any(INTERNAL_ERROR in text for text in said[2])
    saved = [row for c in decided.changes if isinstance(c, SaveOrders) for row in c.rows]
    assert [(row.post, row.canonical) for row in saved] == [(3, "＜予想＞40")]
    assert handled(decided) == [2, 3]


def test_a_failing_gm_command_is_answered_and_the_others_of_its_post_still_run(store: Store) -> None:
    gm = post(2, "設定 scores.アリス=爆発\n設定 scores.ボブ=3", name="GM", trip=GM_TRIP)
    decided = referee.poll(setup(), THREAD, store, [gm], START + timedelta(minutes=2))
    echo = "\n".join(answers(decided)[2])
    assert INTERNAL_ERROR in echo and "scores.ボブ" in echo
    sets = [c.args for c in decided.changes if isinstance(c, Log) and c.kind == "set"]
    assert sets == [{"path": "scores.ボブ", "value": "3"}]


def test_a_failing_resolution_holds_its_period_tells_the_gm_once_and_runs_again_after_a_setting(
    store: Store,
) -> None:
    ruleset = Poisoned()
    ruleset.resolve_fails = True
    orders = [post(2, "＜予想＞40")]
    apply(store, orders, referee.poll(setup(ruleset), THREAD, store, orders, START + timedelta(minutes=2)))
    due = START + timedelta(hours=1, minutes=3)
    held = referee.poll(setup(ruleset), THREAD, store, [], due)
    told = [text for texts in answers(held).values() for text in texts]
    assert any("内部エラー" in text and "ピリオド1" in text for text in told)
    assert not any(isinstance(c, SaveResolution) for c in held.changes)
    apply(store, [], held)
    for minutes in (4, 5, 30):  # held: nothing more is tried, nothing more is said
        again = referee.poll(setup(ruleset), THREAD, store, [], START + timedelta(hours=1, minutes=minutes))
        assert again.changes == []
    ruleset.resolve_fails = False  # the fault is mended; the GM's 設定 asks for the update again
    gm = [post(4, "設定 scores.アリス=0", name="GM", trip=GM_TRIP, minutes=65)]
    resumed = referee.poll(setup(ruleset), THREAD, store, gm, START + timedelta(hours=1, minutes=6))
    resolutions = [c.row for c in resumed.changes if isinstance(c, SaveResolution)]
    assert [row.period for row in resolutions] == [1]
    assert json.loads(resolutions[0].state)["round"] == 1


def test_ready_in_a_post_with_a_refused_line_does_not_close_the_period_early(store: Store) -> None:
    posts = [post(2, "＜予想＞40\n準備完了"), post(3, "＜予想＞たくさん\n準備完了", name="ボブ")]
    decided = referee.poll(setup(early=True), THREAD, store, posts, START + timedelta(minutes=2))
    receipt = "\n".join(answers(decided)[0])
    assert "準備完了にしていません" in receipt
    ready = [c.args["player"] for c in decided.changes if isinstance(c, Log) and c.kind == "ready"]
    assert ready == ["アリス"]
    assert not any(isinstance(c, Log) and c.kind == "early" for c in decided.changes)


def test_an_immediate_step_that_raises_is_answered_and_the_next_step_runs() -> None:
    db = Store(":memory:")
    db.ensure_thread(THREAD.id, THREAD.read_url, "2ch", "guess")
    db.game("guess", "steps", THREAD.id, START - timedelta(minutes=5), secret=bytes(32))
    posts = [post(2, "足す 0"), post(3, "足す 50")]
    decided = referee.poll(setup(Steps()), THREAD, db, posts, START + timedelta(minutes=2))
    said = answers(decided)
    assert any(INTERNAL_ERROR in text for text in said[2]) and any("合計 2" in text for text in said[3])
    steps = [c.row.outbox_id for c in decided.changes if isinstance(c, SaveResolution)]
    assert steps == ["post/3"]
    db.close()


class Interrupted(Steps):
    """足し算 stopped by its operator (Ctrl-C) in the middle of 足す 1; its opening fails."""

    def opening(self, state: int, source: RandomSource) -> tuple[int, Report] | None:
        raise LookupError("no such table")

    def apply(self, state: int, order: Order, source: RandomSource) -> tuple[int, Report]:
        if order.command == 1:
            raise KeyboardInterrupt
        return super().apply(state, order, source)


def test_a_failing_opening_is_logged_as_the_opening_and_the_posts_are_answered_still(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, "threadgm"):
        decided = referee.poll(setup(Interrupted()), THREAD, store, [post(2, "足す 50")], START)
    assert "guess: the opening failed; answered as an internal error" in caplog.messages
    assert any("合計 2" in text for text in answers(decided)[2]) and handled(decided) == [2]


def test_stopping_the_bot_in_the_middle_of_a_step_stops_it(store: Store) -> None:
    with pytest.raises(KeyboardInterrupt):
        referee.poll(setup(Interrupted()), THREAD, store, [post(2, "足す 1")], START + timedelta(minutes=2))


class Rambling(Poisoned):
    """数当て whose update fails with an error as long as a hostile post."""

    def resolve(self, state: GuessState, orders: Sequence[Order], source: RandomSource):
        raise ValueError("長" * 300)


def test_a_held_period_logs_what_failed_and_the_errors_first_200_characters(store: Store) -> None:
    apply(store, [], referee.poll(setup(Rambling()), THREAD, store, [], START))  # the opening
    held = referee.poll(setup(Rambling()), THREAD, store, [], START + timedelta(hours=1, minutes=3))
    (entry,) = [c for c in held.changes if isinstance(c, Log) and c.kind == "held"]
    assert entry.period == 1
    assert entry.args == {"what": "the resolution of period 1", "error": f"ValueError: {'長' * 188}"}
