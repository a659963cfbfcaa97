"""無効 >>N as the pure referee decides it: the GM voids the orders of post N *of the thread the GM
writes in*. After a rollover the new part numbers its posts from 1 again, so the old part's post N is
another post, written by someone else, and stays as it was."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from engine import referee
from engine.clock.schedule import parse_schedule
from engine.referee import GameSetup, PostView, ThreadView
from engine.referee.ledger import Outgoing
from engine.rules import REGISTRY
from store.db import PostRecord, Store

JST = datetime.fromisoformat("2026-12-01T20:00:00+09:00").tzinfo
START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
OLD = ThreadView("local/test/1764590400", "1764590400", "http://127.0.0.1/test/read.cgi/test/1764590400/")
NEW = ThreadView("local/test/1764594000", "1764594000", "http://127.0.0.1/test/read.cgi/test/1764594000/")
GM_TRIP = "GMtrip0000"


@pytest.fixture
def store() -> Store:
    db = Store(":memory:")
    for thread in (OLD, NEW):
        db.ensure_thread(thread.id, thread.read_url, "2ch", "guess")
    db.game("guess", "guess", OLD.id, START - timedelta(minutes=5), secret=bytes(32))
    yield db
    db.close()


def setup() -> GameSetup:
    return GameSetup(
        "guess",
        REGISTRY.get("guess"),
        bytes(32),
        START - timedelta(minutes=5),
        scenario={"players": ["アリス", "ボブ"]},
        schedule=parse_schedule({"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m"}),
        dice=False,
        gm_trips=(GM_TRIP,),
    )


def play(store: Store, thread: ThreadView, *posts: PostView) -> None:
    """One poll of `thread`: the posts recorded as fetched, the referee's decisions applied."""
    records = [PostRecord(thread.id, p.number, p.name, p.trip, "", p.date, "", p.body) for p in posts]
    last = max(p.number for p in posts)
    store.record_fetch(
        thread.id,
        size=1,
        last_modified=None,
        last_number=last,
        posts=records,
        now=START,
        is_own=lambda record: False,
    )
    now = max(p.date for p in posts) + timedelta(seconds=30)
    decided = referee.poll(setup(), thread, store, list(posts), now)
    store.apply([c for c in decided.changes if not isinstance(c, Outgoing)])


def post(number: int, body: str, name: str, minutes: int, trip: str | None = None) -> PostView:
    return PostView(number, name, trip, START + timedelta(minutes=minutes), body)


def test_a_void_after_a_rollover_touches_only_the_post_of_the_gms_thread(store: Store) -> None:
    play(store, OLD, post(12, "＜予想＞40", "アリス", 1))
    store.log("guess", "next", {"from": OLD.id, "to": NEW.id}, START + timedelta(minutes=2), thread_id=OLD.id)
    play(store, NEW, post(12, "＜予想＞55", "ボブ", 3))
    play(store, NEW, post(13, "無効 >>12", "GM", 4, trip=GM_TRIP))
    statuses = {(o.thread_id, o.post, o.player): o.status for o in store.orders("guess")}
    assert statuses == {
        (OLD.id, 12, "アリス"): "accepted",  # the old part's >>12: another post, untouched
        (NEW.id, 12, "ボブ"): "voided",
    }
