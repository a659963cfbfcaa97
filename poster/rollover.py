"""Moving a game to the next part of its thread: opening it (at the board's pace, with a doubling
wait after the board refuses), saying so in the old thread, and carrying over the answers that have
not begun there (pointing back at the old thread's posts by their full address). A report begun in
the old thread ends there: the old thread drains until it owes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from engine.report import Outgoing, Report, line, report
from poster import threads
from poster.markup import PostLimits, fits_post
from poster.outbox import OutboxSender, outbox_rows
from poster.writer import BoardWriter, board_reason
from scraper.refs import ThreadRef
from store.db import Store

log = logging.getLogger("threadgm")

BOARD_DEFAULTS = PostLimits()  # ex0ch's, where the board said nothing
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
        return self.store.apply(outbox_rows([outgoing], ref.id, PostLimits(), now))

    def open_next(
        self,
        ref: ThreadRef,
        game_name: str,
        now: datetime,
        *,
        old_writable: bool,
        free: int = 0,
        limits: PostLimits = BOARD_DEFAULTS,
    ) -> tuple[str, ThreadRef | None, datetime | None]:
        """Open the next part where the board allows and say so in the old one: what happened, the
        thread to move to (None: not opened this time), and when the board's pace allows the next try
        (None: not held by it). `free`: posts the old thread still takes."""
        if self.retry is not None and now < self.retry[0]:
            return f"next thread: trying again at {self.retry[0]:%H:%M:%S}", None, None
        slot = self.sender.pacer.claim(ref.origin, now)  # a new thread is a post to the board too
        if slot is not None:
            return f"next thread: the board's pace allows it at {slot:%H:%M:%S}", None, slot
        try:
            outcome = self.writer.new_thread(
                ref,
                threads.next_title(self.title or self._title(ref)),
                threads.first_post(game_name, ref.read_url),
            )
        finally:  # the pace counts from the board's answer, as for a reply
            self.sender.pacer.answered(ref.origin, self.sender.clock())
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
            return f"next thread not opened: {outcome.message}", None, None
        self.retry = None
        target = ref.with_key(outcome.key)
        keep: list[str] = []
        if old_writable:
            # A report begun in the old thread ends there, then the link; what has not begun goes
            # whole to the new thread. Where even that would not fit, everything goes.
            keep = self._begun(ref.id)
            if len(keep) + 1 > free:
                keep = []
            base = f"{self.game_id}/{ref.key}/next"
            self.post(ref, report(line(threads.moved_notice(target.read_url))), base, now)
            keep.append(f"{base}/0")
        self.move(ref, target, "次スレ", now, keep=keep, limits=limits)
        return f"moved to {target.read_url}", target, None

    def _begun(self, thread_id: str) -> list[str]:
        """The unsent rows of reports whose first part has already been posted in the thread."""
        started = {row.id.rsplit("/", 1)[0] for row in self.store.outbox(thread_id, ["sent"])}
        return [
            row.id
            for row in self.store.outbox(thread_id, ["pending", "sending"])
            if row.id.rsplit("/", 1)[0] in started
        ]

    def _title(self, ref: ThreadRef) -> str:
        first = self.store.post(ref.id, 1)
        return first.title if first and first.title else self.game_id

    def move(
        self,
        old: ThreadRef,
        target: ThreadRef,
        why: str,
        now: datetime,
        *,
        keep: list[str] | None = None,
        keep_all: bool = False,
        limits: PostLimits = BOARD_DEFAULTS,
    ) -> None:
        """The game plays in `target` from now on. The rows in `keep` (all, with `keep_all`) are
        still sent in the old thread, which drains until it owes nothing; the rest go to `target`,
        pointing back at the old thread's posts by their full address."""
        self.store.ensure_thread(target.id, target.read_url, str(target.dialect), self.game_id)
        owed = {row.id for row in self.store.outbox(old.id, ["pending", "sending"])}
        kept = owed if keep_all else owed & set(keep or ())
        with self.store.transaction():
            self.store.set_thread_status(old.id, "draining" if kept else "moved", f"{why}: {target.read_url}")
            self.store.retarget_outbox(old.id, target.id, self._pointing_back(old, limits), keep=sorted(kept))
            self.store.log(self.game_id, "next", {"from": old.id, "to": target.id}, now, thread_id=old.id)
        log.info("%s: now playing in %s", self.game_id, target.read_url)

    def carry_over(self, old: ThreadRef, target: ThreadRef, now: datetime, limits: PostLimits) -> int:
        """What an old thread owes but can no longer take (it filled or closed) goes to `target`."""
        with self.store.transaction():
            moved = self.store.retarget_outbox(old.id, target.id, self._pointing_back(old, limits))
        if moved:
            log.warning(
                "%s: %d answer(s) the old thread could not take go to %s",
                self.game_id,
                moved,
                target.read_url,
            )
        return moved

    @staticmethod
    def _pointing_back(old: ThreadRef, limits: PostLimits) -> Callable[[str], str]:
        def rewrite(body: str) -> str:
            full = threads.point_back(body, old.read_url)
            return full if fits_post(full, limits) else threads.point_back(body, old.read_url, short=True)

        return rewrite
