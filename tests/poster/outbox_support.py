"""What the outbox tests share: the thread they post to, a stand-in writer that answers as told,
an outbox on a board without samba, and a read of the thread that brought given posts."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta, timezone

from poster.outbox import OutboxSender
from poster.pacing import Pacer
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import PostRecord, Store

JST = timezone(timedelta(hours=9))
REF = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")
T0 = datetime(2026, 11, 29, 21, 0, tzinfo=JST)
TOO_LONG = "ＥＲＲＯＲ：本文が長すぎます！"


class Writer:
    """A stand-in for the board's writer: each reply is recorded and answered with the next outcome
    given. `name` as BoardWriter keeps it (`#key` in it: the bot signs with a trip)."""

    def __init__(self, *outcomes: WriteOutcome, name: str = "ボット") -> None:
        self.name = name
        self.outcomes = list(outcomes)
        self.sent: list[str] = []
        self.threads: list[ThreadRef] = []

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:
        self.sent.append(body)
        self.threads.append(ref)
        return self.outcomes.pop(0)


def sender(store: Store, writer: Writer, clock: list[datetime], pace: float = 0) -> OutboxSender:
    # A board without samba unless a test asks for one: the resend decisions are these tests' subject.
    return OutboxSender(store, writer, lambda: clock[0], lambda post: False, Pacer(pace))


def bot_posts(
    store: Store,
    *posts: tuple[int, str, str],
    own: Collection[int] = (),
    now: datetime = T0,
) -> None:
    """A read of the thread that brought `posts` (number, name, body); those numbered in `own` are the
    bot's."""
    store.record_fetch(
        REF.id,
        size=0,
        last_modified=None,
        last_number=max(number for number, _, _ in posts),
        now=now,
        posts=[PostRecord(REF.id, number, name=name, body=body) for number, name, body in posts],
        is_own=lambda post: post.number in own,
    )
