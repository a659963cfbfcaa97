"""A registered game played through the pure referee (`engine.referee.poll`) on an in-memory store:
posts in, decisions applied as the bot applies them, every report rendered as the poster would —
for tests that throw many posts at every game without a board."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from engine import referee
from engine.clock.schedule import parse_schedule
from engine.keys import JST
from engine.referee import Decisions, GameSetup, PostView, ThreadView
from engine.referee.ledger import Outgoing
from engine.rules import REGISTRY
from engine.ruleset import Ruleset
from poster.markup import PostLimits, render_posts
from store.db import PostRecord, Store

START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
THREAD = ThreadView("local/test/1764590400", "1764590400", "http://127.0.0.1/test/read.cgi/test/1764590400/")
GM_TRIP = "GMGMGMGMGM"
LIMITS = PostLimits(60, 8192, 512)
SCHEDULE = {"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m", "early": True}


def open_scenario(game_id: str) -> str:
    """The game's own template (what `threadgm new` writes), opened to anyone where it names players
    by placeholder trips no one has (the naval islands, DH's sides), so that players' posts reach its
    rules."""
    text = REGISTRY.get(game_id).template() or ""
    if game_id == "naval":
        lines = [line for line in text.split("\n") if not line.startswith("players = ")]
        text = "\n".join(lines)
    if game_id == "dh":  # a side without trips is anyone's only at an open table
        lines = ["trips = []" if line.startswith("trips = ") else line for line in text.split("\n")]
        text = "\n".join(lines).replace("open = false", "open = true", 1)
    return text


class PureGame:
    """One game on one thread, polled through the referee; the store is what the bot's would hold."""

    def __init__(self, game_id: str, scenario: str | None = None, ruleset: Ruleset | None = None) -> None:
        """A registered game (`game_id`), or a test's own `ruleset` under that id."""
        ruleset = ruleset or REGISTRY.get(game_id)
        self.store = Store(":memory:")
        self.store.ensure_thread(THREAD.id, THREAD.read_url, "2ch", game_id)
        self.store.game(game_id, game_id, THREAD.id, START - timedelta(minutes=5), secret=bytes(32))
        text = open_scenario(game_id) if scenario is None and game_id in REGISTRY.ids() else scenario
        self.setup = GameSetup(
            game_id,
            ruleset,
            bytes(32),
            START - timedelta(minutes=5),
            scenario=ruleset.read_scenario(text) if text else {},
            schedule=None if ruleset.immediate else parse_schedule(SCHEDULE),
            dice=True,
            gm_trips=(GM_TRIP,),
        )
        self.number = 1
        self.now = START

    def post(self, body: str, name: str = "名無し", trip: str | None = None) -> PostView:
        self.number += 1
        return PostView(self.number, name, trip, self.now, body)

    def poll(self, posts: Iterable[PostView] = (), minutes: float = 0) -> Decisions:
        """One poll `minutes` later, its decisions applied to the store."""
        self.now += timedelta(minutes=minutes)
        posts = list(posts)
        decided = referee.poll(self.setup, THREAD, self.store, posts, self.now)
        records = [
            PostRecord(THREAD.id, p.number, p.name, p.trip, "", p.date, p.poster_id, p.body) for p in posts
        ]
        self.store.record_fetch(
            THREAD.id,
            size=self.number,
            last_modified=None,
            last_number=self.number,
            posts=records,
            now=self.now,
            is_own=lambda record: False,
        )
        self.store.apply([c for c in decided.changes if not isinstance(c, Outgoing)])
        return decided

    def close(self) -> None:
        self.store.close()


def posted(decided: Decisions) -> list[str]:
    """Every post the decisions would make, rendered under the board's limits."""
    texts: list[str] = []
    for change in decided.changes:
        if isinstance(change, Outgoing):
            texts += render_posts(list(change.reports), LIMITS)
    return texts
