"""The referee on its own: a poll decides from the stored log and the posts, writes nothing, and
decides the same twice; the store carries the decisions out in one transaction."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from engine import referee
from engine.clock.schedule import parse_schedule
from engine.referee import GameSetup, PostView, ThreadView
from engine.referee.ledger import Ledger, Outgoing
from engine.rules import REGISTRY
from store.changes import MarkHandled, SaveOrders, SaveResolution, SetGameStarted
from store.db import PostRecord, Store
from store.records import OrderRecord, ResolutionRecord

JST = datetime.fromisoformat("2026-12-01T20:00:00+09:00").tzinfo
START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
THREAD = ThreadView("local/test/1764590400", "1764590400", "http://127.0.0.1/test/read.cgi/test/1764590400/")


@pytest.fixture
def store() -> Store:
    db = Store(":memory:")
    db.ensure_thread(THREAD.id, THREAD.read_url, "2ch", "guess")
    db.game("guess", "guess", THREAD.id, START - timedelta(minutes=5), secret=bytes(32))
    yield db
    db.close()


def setup() -> GameSetup:
    schedule = parse_schedule({"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m"})
    return GameSetup(
        "guess",
        REGISTRY.get("guess"),
        bytes(32),
        START - timedelta(minutes=5),
        scenario={"players": ["アリス", "ボブ"]},
        schedule=schedule,
        dice=False,
    )


def post(number: int, body: str, name: str = "アリス", minutes: int = 1) -> PostView:
    return PostView(number, name, None, START + timedelta(minutes=minutes), body)


def test_a_poll_writes_nothing_and_decides_the_same_twice(store: Store) -> None:
    posts = [post(2, "＜予想＞40"), post(3, "＜予想＞abc", name="ボブ")]
    first = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    again = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    assert first == again
    assert store.orders("guess") == [] and store.game_started("guess") is None
    kinds = {type(change) for change in first.changes}
    assert {SaveOrders, MarkHandled, SetGameStarted, Outgoing} <= kinds


def test_the_store_applies_a_poll_once(store: Store) -> None:
    posts = [post(2, "＜予想＞40"), post(3, "＜予想＞55", name="ボブ")]
    records = [PostRecord(THREAD.id, p.number, p.name, p.trip, "", p.date, "", p.body) for p in posts]
    store.record_fetch(
        THREAD.id,
        size=1,
        last_modified=None,
        last_number=3,
        posts=records,
        now=START,
        is_own=lambda record: False,
    )
    decided = referee.poll(setup(), THREAD, store, posts, START + timedelta(minutes=2))
    store.apply([c for c in decided.changes if not isinstance(c, Outgoing)])
    assert store.unhandled_posts(THREAD.id) == []
    assert [(o.player, o.canonical) for o in store.orders("guess", 1)] == [
        ("アリス", "＜予想＞40"),
        ("ボブ", "＜予想＞55"),
    ]
    at_deadline = referee.poll(setup(), THREAD, store, [], START + timedelta(hours=1, minutes=3))
    resolved = [c.row for c in at_deadline.changes if isinstance(c, SaveResolution)]
    assert [row.period for row in resolved] == [1]
    reports = [c for c in at_deadline.changes if isinstance(c, Outgoing)]
    assert reports[-1].kind == "resolution" and reports[-1].base == "guess/P1/0"


def test_the_ledger_reads_its_own_decisions(store: Store) -> None:
    book = Ledger(store, "guess")
    row = OrderRecord(
        "guess", THREAD.id, 2, 0, "アリス", "アリス", 1, "＜予想＞4", "＜予想＞4", "アリス", "accepted"
    )
    book.save_orders([row])
    assert [o.post for o in book.orders(1, ["accepted"])] == [2]
    book.set_order_status(row, "cancelled", ">>3 取消")
    assert book.orders(1, ["accepted"]) == [] and book.orders(1)[0].reason == ">>3 取消"
    book.save_resolution(ResolutionRecord("guess", 1, "{}", "guess/P1/0/0", START.isoformat(), 1))
    book.save_resolution(ResolutionRecord("guess", 2, "{}", "guess/P2/0/0", START.isoformat(), 0))
    assert book.last_resolution().period == 2
    book.delete_resolution(2)
    assert book.last_resolution().period == 1
    book.log("ready", {"player": "アリス"}, START, period=1)
    assert [e.args for e in book.log_entries(["ready"])] == [{"player": "アリス"}]
    assert store.orders("guess") == [] and store.last_resolution("guess") is None  # nothing written
