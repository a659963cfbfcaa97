"""Moving a game to the next part of its thread: opening it (with a doubling wait after the board
refuses), saying so in the old thread, and carrying the unsent answers over (pointing back with 前スレ).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from engine.referee.ledger import Outgoing
from engine.report import Report, line, report
from poster import threads
from poster.markup import PostLimits
from poster.outbox import OutboxSender, outbox_rows
from poster.writer import BoardWriter, board_reason
from scraper.refs import ThreadRef
from store.db import Store

log = logging.getLogger("threadgm")

RETRY = timedelta(minutes=10)
RETRY_MAX = timedelta(hours=2)


class Rollover:
    """The thread moves of one game."""

    def __init__(
        self, game_id: str, store: Store, writer: BoardWriter, sender: OutboxSender, title: str = ""
    ) -> None:
        self.game_id = game_id
        self.store = store
        self.writer = writer
        self.sender = sender
        self.title = title  # of the threads the bot opens ("": the thread's own, with the next part)
        # After a refused new thread (スレッド立てすぎ on ex0ch lasts until others open threads), wait
        # before asking the board again; the wait doubles up to RETRY_MAX.
        self.retry: tuple[datetime, timedelta] | None = None

    def post(self, ref: ThreadRef, notice: Report, base: str, now: datetime) -> int:
        outgoing = Outgoing(base, "next", (notice,))
        return self.store.apply(outbox_rows([("post", {"outgoing": outgoing})], ref.id, PostLimits(), now))

    def open_next(
        self, ref: ThreadRef, game_name: str, now: datetime, *, old_writable: bool, others_after: Callable
    ) -> tuple[str, ThreadRef | None]:
        """Open the next part where the board allows and say so in the old one: what happened, and the
        thread to move to (None: not opened this time)."""
        if self.retry is not None and now < self.retry[0]:
            return f"next thread: trying again at {self.retry[0]:%H:%M:%S}", None
        outcome = self.writer.new_thread(
            ref,
            threads.next_title(self.title or self._title(ref)),
            threads.first_post(game_name, ref.read_url),
        )
        if not outcome.posted or outcome.key is None:
            wait = min(RETRY if self.retry is None else self.retry[1] * 2, RETRY_MAX)
            self.retry = (now + wait, wait)
            log.error(
                "%s: could not open the next thread (%s: %s); trying again in %d min",
                self.game_id,
                outcome.kind,
                outcome.message,
                wait.total_seconds() // 60,
            )
            if old_writable:  # once per thread (the outbox id): the GM can open it and say 次スレ
                notice = report(line(threads.open_failed_notice(board_reason(outcome.message))))
                self.post(ref, notice, f"{self.game_id}/{ref.key}/next-failed", now)
            return f"next thread not opened: {outcome.message}", None
        self.retry = None
        target = ref.with_key(outcome.key)
        if old_writable:
            self.post(
                ref,
                report(line(threads.moved_notice(target.read_url))),
                f"{self.game_id}/{ref.key}/next",
                now,
            )
            self.sender.send(ref, ref.id, self.store.thread(ref.id).last_number, others_after)
        self.move(ref, target, "次スレ", now)
        return f"moved to {target.read_url}", target

    def _title(self, ref: ThreadRef) -> str:
        first = self.store.post(ref.id, 1)
        return first.title if first and first.title else self.game_id

    def move(self, old: ThreadRef, target: ThreadRef, why: str, now: datetime) -> None:
        """The game plays in `target` from now on; what was not sent goes there, marked 前スレ."""
        self.store.ensure_thread(target.id, target.read_url, str(target.dialect), self.game_id)
        with self.store.transaction():
            self.store.set_thread_status(old.id, "moved", f"{why}: {target.read_url}")
            self.store.retarget_outbox(old.id, target.id, prefix="前スレ")
            self.store.log(self.game_id, "next", {"from": old.id, "to": target.id}, now, thread_id=old.id)
        log.info("%s: now playing in %s", self.game_id, target.read_url)
