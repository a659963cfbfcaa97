"""Exactly-once sending from the outbox.

A post to send is stored (`pending`) in the same transaction that decided it. Before the request
leaves, the row becomes `sending` (committed), with the thread's last post number. It becomes `sent`
only when the board confirms. A row found `sending` later — the bot crashed, or the board's answer
was lost or said nothing clear — is not simply sent again: the thread is read first, and if a post of
the bot's with that text appeared after the recorded number, the row is marked sent instead; it is
judged lost only after LANDING_TIME (or the rest a failing board was given), and only then sent
again. While a row is `sending`, nothing else goes. Rows go out in order; the first one that cannot
go (samba, 連投, a closed thread) holds the ones after it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from poster.markup import PostLimits, render_posts
from poster.writer import BoardWriter, WriteOutcome
from scraper.post import decode_line
from scraper.refs import ThreadRef
from store.db import OutboxRecord, PostRecord, Store

log = logging.getLogger(__name__)

MAX_REST = timedelta(hours=1)  # the longest wait between resends to a board that keeps failing
# How long a post whose answer was lost may take to show up: a slow board can still be writing it
# when the bot reads the thread next, and a resend then would post it twice.
LANDING_TIME = timedelta(seconds=20)


def comparable(text: str) -> str:
    """Text as a board gives it back, read as the scraper reads it: lines are the text's own line
    breaks (a reference such as `&#10;` breaks none), entities resolved, and the spaces within a line
    left out — boards trim them, collapse them, or turn a control into one or into nothing."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").strip().split("\n")
    return "\n".join("".join(decode_line(line).split()) for line in lines)


@dataclass(frozen=True)
class SendResult:
    sent: int = 0
    closed: str | None = None  # the board said the thread is closed (stopped, full, moved, gone)
    waiting: str | None = None  # why the next row is held back


class OutboxSender:
    def __init__(
        self,
        store: Store,
        writer: BoardWriter,
        clock: Callable[[], datetime],
        is_own: Callable[[PostRecord], bool],
    ) -> None:
        self.store = store
        self.writer = writer
        self.clock = clock
        self.is_own = is_own

    def reconcile(self, thread_id: str) -> None:
        """Settle rows left `sending`: found in the thread → sent; not found once their time to land
        is over → pending again (sent at once); not found before that → looked for again next read."""
        for row in self.store.outbox(thread_id, ["sending"]):
            landed = self._find_landed(thread_id, row)
            if landed is not None:
                with self.store.transaction():
                    self.store.mark_own(thread_id, landed.number)
                self.store.mark_sent(row.id, self.clock(), landed.number)
                log.info("%s: outbox %s had landed as >>%d; not sent again", thread_id, row.id, landed.number)
            elif row.not_before and datetime.fromisoformat(row.not_before) > self.clock():
                log.debug(  # every poll until then; the warning was given when the answer was lost
                    "%s: outbox %s not in the thread yet; looking again until %s",
                    thread_id,
                    row.id,
                    row.not_before,
                )
            else:
                self.store.mark_unsent(row.id, "not found in the thread after an unconfirmed send")
                log.warning("%s: outbox %s did not land; it will be sent again", thread_id, row.id)

    def _find_landed(self, thread_id: str, row: OutboxRecord) -> PostRecord | None:
        wanted = comparable(row.body)
        for post in self.store.posts_after(thread_id, row.after_number):
            if self.is_own(post) and comparable(post.body) == wanted:
                return post
        return None

    def send(
        self, ref: ThreadRef, thread_id: str, last_number: int, others_after: Callable[[int], bool]
    ) -> SendResult:
        """Send what is due, in order. `others_after(n)` says whether someone else wrote after post n."""
        if self.store.outbox(thread_id, ["sending"]):
            return SendResult(waiting="an unconfirmed post must be looked for in the thread first")
        sent = 0
        for row in self.store.outbox(thread_id, ["pending"]):
            now = self.clock()
            if row.not_before and datetime.fromisoformat(row.not_before) > now:
                return SendResult(sent, waiting=f"the board asked to wait until {row.not_before}")
            if row.wait_after and not others_after(row.wait_after):
                return SendResult(sent, waiting="連続投稿: waiting for someone else to write")
            self.store.mark_sending(row.id, last_number, settle_after=now + LANDING_TIME)
            outcome = self.writer.reply(ref, row.body)
            result = self._settle(row, outcome, last_number)
            if result is not None:
                return SendResult(sent, closed=result.closed, waiting=result.waiting)
            sent += outcome.posted
        return SendResult(sent)

    def _settle(self, row: OutboxRecord, outcome: WriteOutcome, last_number: int) -> SendResult | None:
        """Record an outcome; a SendResult means: stop sending for now."""
        now = self.clock()
        if outcome.kind == "posted":
            self.store.mark_sent(row.id, now)
            return None
        log.warning("%s: outbox %s: %s (%s)", row.thread_id, row.id, outcome.kind, outcome.message)
        if outcome.kind == "rejected":
            self.store.drop(row.id, outcome.message)
            return None
        if outcome.kind == "uncertain":
            # stays `sending`: the thread is read first; a board in trouble gets longer and longer rests
            rest = LANDING_TIME.total_seconds()
            if outcome.retry_after:
                rest = max(rest, min(outcome.retry_after * 2**row.attempts, MAX_REST.total_seconds()))
            self.store.mark_unconfirmed(row.id, outcome.message, not_before=now + timedelta(seconds=rest))
            return SendResult(waiting=f"unconfirmed: {outcome.message}")
        if outcome.kind == "retry":
            rest = outcome.retry_after or 60
            if outcome.backoff:  # the board's trouble has no stated end: longer and longer rests
                rest = min(rest * 2**row.attempts, MAX_REST.total_seconds())
            wait = timedelta(seconds=rest)
            self.store.mark_unsent(row.id, outcome.message, not_before=now + wait)
            return SendResult(waiting=outcome.message)
        if outcome.kind == "wait_for_others":
            self.store.mark_unsent(row.id, outcome.message, wait_after=last_number)
            return SendResult(waiting=outcome.message)
        self.store.mark_unsent(row.id, outcome.message)
        return SendResult(closed=outcome.message)


def outbox_rows(
    changes: Iterable[tuple[str, dict]], thread_id: str, limits: PostLimits, now: datetime
) -> list[tuple[str, dict]]:
    """A poll's decisions with each report to post (`post`, an `Outgoing`) rendered under the board's
    limits into outbox rows (`queue`), `BASE/0`, `BASE/1`… in order; other decisions pass unchanged."""
    rows: list[tuple[str, dict]] = []
    for operation, arguments in changes:
        if operation != "post":
            rows.append((operation, arguments))
            continue
        outgoing = arguments["outgoing"]
        for index, body in enumerate(render_posts(outgoing.reports, limits)):
            row = {"outbox_id": f"{outgoing.base}/{index}", "thread_id": thread_id, "kind": outgoing.kind}
            rows.append(("queue", {**row, "body": body, "now": now}))
    return rows
