"""What the game page shows of one game, computed from the store and the engine — and only what the
thread itself has been told or may be told:

- the period, its deadline and who has sent orders in it (their names, never what they ordered),
- the state as the ruleset's picture (else its 状態 table) and the 状態 report as the standings,
- every report the bot has posted (the sent posts, as posted),
- the commitments to the period keys and the keys already published (a key is shown only once the
  post that reveals it has been sent; the secret dice's key only once the game is over and told).

The game's seed, the keys of open periods, secret rolls and the orders of an open period are never
read into a view.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine import keys
from engine.clock.periods import deadline_text
from engine.config import GameConfig
from engine.keys import JST
from engine.referee import GameSetup
from engine.report import Block, Heading, Line, Report, Section, Table
from engine.ruleset import picture_of, result_data
from poster.markup import block_lines
from store.db import OutboxRecord, Store
from store.reads import change_mark, history_mark, is_sent, sent_posts, unsent_count
from web.history import game_now, periods, state_at, thread_of

log = logging.getLogger("threadgm")


@dataclass(frozen=True)
class KeyRow:
    period: str
    commitment: str
    key: str | None  # None until the post that publishes it has been sent


@dataclass(frozen=True)
class PostedReport:
    title: str
    kind: str
    body: str
    sent_at: str | None


# A game's status as the page says it to players (the store keeps the English words).
STATUS_LABELS = {"not started": "開始前", "running": "進行中", "paused": "一時停止中", "finished": "終了"}


@dataclass
class GameView:
    id: str
    name: str
    rules: str
    thread_url: str
    status: str  # not started | running | paused | finished
    period: int | None  # the open period (games on the clock)
    deadline: datetime | None
    senders: list[str]
    waiting: list[str]  # the players expected who have sent nothing yet
    picture: str | None
    standings: list[dict[str, Any]]  # the 状態 report as headings, lines and tables
    reports: list[PostedReport]
    keys: list[KeyRow]
    secret_commitment: str | None
    secret_key: str | None
    mark: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def status_label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)

    @property
    def deadline_text(self) -> str:
        return deadline_text(self.deadline) if self.deadline else ""

    def summary(self) -> dict[str, Any]:
        """The small JSON the page polls: enough to tell that something changed, and the clock."""
        return {
            "id": self.id,
            "mark": self.mark,
            "status": self.status,
            "period": self.period,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "senders": self.senders,
        }


def report_parts(report: Report) -> list[dict[str, Any]]:
    """A report as parts a template can show with autoescaping: headings, lines, tables."""
    parts: list[dict[str, Any]] = []

    def walk(block: Block) -> None:
        if isinstance(block, Heading):
            parts.append({"kind": "heading", "text": block.text})
        elif isinstance(block, Table):
            parts.append({"kind": "table", "header": block.header, "rows": block.rows})
        elif isinstance(block, Section):
            for inner in block.blocks:
                walk(inner)
        elif isinstance(block, Line):
            parts.append({"kind": "line", "text": block_lines(block)[0]})

    for block in report.blocks:
        walk(block)
    return parts


def _reports(posts: list[OutboxRecord]) -> list[PostedReport]:
    """The posts as reports: the parts of one report (a long one is split under the board's limits,
    `BASE/0`, `BASE/1`…) shown together, as posted, one after the other."""
    grouped: dict[str, list[OutboxRecord]] = {}
    for post in posts:
        grouped.setdefault(post.id.rsplit("/", 1)[0], []).append(post)
    shown = []
    for parts in grouped.values():
        parts.sort(key=lambda p: int(p.id.rsplit("/", 1)[1]) if p.id.rsplit("/", 1)[1].isdigit() else 0)
        body = "\n\n".join(p.body for p in parts)
        shown.append(
            PostedReport(_title(parts[0].body, parts[0].kind), parts[0].kind, body, parts[-1].sent_at)
        )
    return shown


def _title(body: str, kind: str) -> str:
    """The report's heading; an answer is named by the posts it answers and what it says first
    (「>>5への返答：アキラの肉体判定…」), not all alike 「返答」."""
    lines = body.split("\n")
    first = lines[0]
    if first.startswith("【"):
        return first
    if kind == "answer" and first.startswith(">>"):
        said = next((text.strip() for text in lines[1:] if text.strip()), "")
        return f"{first.strip()}への返答" + (f"：{said[:30]}{'…' if len(said) > 30 else ''}" if said else "")
    return {"resolution": "更新", "answer": "返答"}.get(kind, kind)


class Views:
    """The views of the configured games, each recomputed only when its store mark moves (a refold of
    a long game is not done on every poll of the page)."""

    def __init__(self, store: Store, games: list[tuple[GameConfig, GameSetup]]) -> None:
        self.store = store
        self.games = {config.id: (config, setup) for config, setup in games}
        self._cache: dict[str, tuple[str, GameView]] = {}
        self._history: dict[str, tuple[str, History]] = {}
        self._lock = threading.Lock()

    def ids(self) -> list[str]:
        return list(self.games)

    def view(self, game_id: str, now: datetime | None = None) -> GameView | None:
        if game_id not in self.games:
            return None
        mark = change_mark(self.store, game_id)
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None and cached[0] == mark and now is None:
                return cached[1]
        config, setup = self.games[game_id]
        try:
            view = build(self.store, config, setup, mark, self._last(config, setup), now)
        except Exception:  # a game the page cannot read must not take the other games with it
            log.exception("%s: the game page could not be made", game_id)
            if cached is None:
                raise
            return cached[1]
        with self._lock:
            self._cache[game_id] = (mark, view)
        return view

    def _last(self, config: GameConfig, setup: GameSetup) -> History:
        """The state after the last period with its result: folded again only when a period was
        resolved or the GM's log moved (not for every receipt)."""
        key = history_mark(self.store, setup.id)
        with self._lock:
            cached = self._history.get(setup.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        history = last_period(self.store, config, setup)
        with self._lock:
            self._history[setup.id] = (key, history)
        return history


@dataclass(frozen=True)
class History:
    state: Any
    result: Mapping[str, Any] | None
    resolved: tuple[int, ...]


def last_period(store: Store, config: GameConfig, setup: GameSetup) -> History:
    """A clocked game's periods folded again (the last one's result draws the picture); an immediate
    game's steps are many and tell nothing more: its stored state is the picture's."""
    ruleset = setup.ruleset
    if ruleset.immediate:
        state, last = state_at(setup, store)
        return History(state, None, tuple(range(1, last + 1)))
    resolved = periods(setup, thread_of(store, config), store)
    if not resolved:
        return History(ruleset.initial_state(setup.scenario), None, ())
    final = resolved[-1]
    result = result_data(final.report) if final.report is not None else None
    return History(final.state, result, tuple(p.number for p in resolved))


def build(
    store: Store,
    config: GameConfig,
    setup: GameSetup,
    mark: str,
    history: History,
    now: datetime | None = None,
) -> GameView:
    ruleset = setup.ruleset
    thread = thread_of(store, config)
    game = game_now(setup, thread, store, now or datetime.now(JST))
    started = game.book.started()
    status = game.book.status() if started or ruleset.immediate else "not started"
    resolved, state, result = history.resolved, history.state, history.result
    period = deadline = None
    senders: list[str] = []
    waiting: list[str] = []
    if setup.clocked and status != "finished":
        period = game.current_period()
        clock = game.clock()
        deadline = clock.deadline(period) if clock is not None and started else None
        for order in store.orders(setup.id, period, ["accepted"]):
            if order.player not in senders:
                senders.append(order.player)
        waiting = game.missing_players(period) if started else []
    # A clocked game's answers hold its receipts, which list the orders of the open period: only
    # the opening, the periods' reports and the end are shown. An immediate game has nothing open.
    kinds = ("answer",) if ruleset.immediate else ("opening", "resolution", "finish")
    posts = sent_posts(store, setup.id, kinds)
    told = "\n".join(post.body for post in sent_posts(store, setup.id))
    keys_shown, secret_key = _keys(store, setup, resolved, status, told)
    secret_commitment = keys.commitment(setup.rules_secret)
    return GameView(
        id=config.id,
        name=ruleset.NAME,
        rules=ruleset.ID,
        thread_url=thread.read_url,
        status=status,
        period=period,
        deadline=deadline,
        senders=senders,
        waiting=waiting,
        picture=picture_of(ruleset, state, result),
        standings=report_parts(ruleset.status(state)),
        reports=_reports(posts),
        keys=keys_shown,
        secret_commitment=secret_commitment if secret_commitment in told else None,
        secret_key=secret_key,
        mark=mark,
        extra={"resolved": len(resolved)},
    )


def _keys(
    store: Store, setup: GameSetup, resolved: tuple[int, ...], status: str, told: str
) -> tuple[list[KeyRow], str | None]:
    """The period keys' commitments, each key once its post has been sent; the secret dice's key
    once the game is over and a sent post holds it."""
    rows: list[KeyRow] = []
    if setup.clocked:
        told = {number for number in resolved if is_sent(store, _resolution_post(store, setup.id, number))}
        upto = len(resolved) + (0 if status in ("finished", "not started") else 1)
        for number in range(1, upto + 1):
            key = setup.period_key(number)
            rows.append(
                KeyRow(f"ピリオド{number}", keys.commitment(key), key.hex() if number in told else None)
            )
    else:
        for record in store.periods(setup.id):
            key = setup.day_key(record.period)
            shown = key.hex() if record.revealed_in and is_sent(store, record.revealed_in) else None
            rows.append(KeyRow(record.period, record.commitment, shown))
    secret = setup.rules_secret.hex()
    over = status == "finished" and unsent_count(store, setup.id) == 0 and secret in told
    return rows, secret if over else None


def _resolution_post(store: Store, game_id: str, period: int) -> str:
    row = store.resolution(game_id, period)
    return row.outbox_id if row is not None else ""
