"""Exactly-once sending from the outbox.

A post to send is stored (`pending`) in the same transaction that decided it. Before the request
leaves, the row becomes `sending` (committed), with the thread's last post number. It becomes `sent`
only when the board confirms. A row found `sending` later — the bot crashed, or the board's answer
was lost or said nothing clear — is not simply sent again: the thread is read first, and if a post of
the bot's with that text appeared after the recorded number, the row is marked sent instead; it is
judged lost only after LANDING_TIME (or the rest a failing board was given), and only then sent
again. While a row is `sending`, nothing else goes. Rows go out in order; the first one that cannot
go (the board's pace, 連投, a closed thread) holds the ones after it, and where the board paces the
bot or limits its consecutive posts (連投規制), the rows that waited go out together as one post when
it can hold them (a batch). Under 連投規制 the bot never asks past the limit: its last allowed post
ends with `consecutive.HOLD_NOTICE`, and the rest waits for someone else's post.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.report import Outgoing
from poster import consecutive
from poster.consecutive import ConsecutiveLimit
from poster.markup import PostLimits, fits_post, render_posts
from poster.pacing import Pacer
from poster.threads import leading_anchors, refused_notice
from poster.writer import CP932, BoardWriter, WriteOutcome, board_reason
from scraper.post import decode_line
from scraper.refs import ThreadRef
from store.changes import Change, Queue
from store.db import OutboxRecord, PostRecord, Store

log = logging.getLogger(__name__)

MAX_REST = timedelta(hours=1)  # the longest wait between resends to a board that keeps failing
# How long a post whose answer was lost may take to show up: a slow board can still be writing it
# when the bot reads the thread next, and a resend then would post it twice.
LANDING_TIME = timedelta(seconds=20)
# How long a post the board said it wrote (書きこみました) may take to show in the thread before it is
# judged never written and sent again: a board can answer success for a post it drops (a filter, a
# failing disk, a cache in front of it), and the players would never get the answer. The wait doubles
# with each send of the same row (up to MAX_REST), so a board that drops everything is not flooded.
SEEN_WITHIN = timedelta(minutes=2)
REFUSED = "/refused"  # the id of the notice said in place of a row the board refused, after the row's


def comparable(text: str) -> str:
    """Text as a board gives it back, read as the scraper reads it: lines are the text's own line
    breaks (a reference such as `&#10;` breaks none), entities resolved, the spaces within a line
    left out — boards trim them, collapse them, or turn a control into one or into nothing — and each
    character as Shift-JIS holds it: the bot's − (U+2212) or 〜 (U+301C) comes back from a board as －
    or ～, and taken for another text, a landed post would be sent again."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").strip().split("\n")
    return "\n".join("".join(_as_stored(decode_line(line)).split()) for line in lines)


def _as_stored(text: str) -> str:
    """`text` through CP932 and back (what has no CP932 form, as its reference): one form for each of
    the characters boards' charsets map to one code (both sides of a comparison go through it)."""
    return text.encode(CP932, errors="xmlcharrefreplace").decode(CP932)


@dataclass(frozen=True)
class SendResult:
    sent: int = 0  # posts that landed (a post may carry several rows)
    closed: str | None = None  # the board said the thread is closed (stopped, full, moved, gone)
    waiting: str | None = None  # why the next row is held back
    wake_at: datetime | None = None  # when the held row may go: the bot polls again then


class OutboxSender:
    """Sends a thread's rows in order, at the board host's pace, exactly once."""

    def __init__(
        self,
        store: Store,
        writer: BoardWriter,
        clock: Callable[[], datetime],
        is_own: Callable[[PostRecord], bool],
        pacer: Pacer | None = None,
    ) -> None:
        self.store = store
        self.writer = writer
        self.clock = clock
        self.is_own = is_own
        self.pacer = pacer or Pacer()
        self._alone: set[str] = set()  # rows a board refused as part of a longer post

    def reconcile(self, thread_id: str) -> None:
        """Settle rows left `sending`: found in the thread → sent; not found once their time to land
        is over → pending again (sent at once); not found before that → looked for again next read.
        A row the board refused and that waits to go again is looked for too (`_refused_landed`), and
        so is one the board said it wrote (`_confirm_unseen`)."""
        self._refused_landed(thread_id)
        self._confirm_unseen(thread_id)
        posts: dict[str, list[OutboxRecord]] = {}
        for row in self.store.outbox(thread_id, ["sending"]):
            posts.setdefault(row.batch or row.id, []).append(row)
        for first, *rest in posts.values():
            ids = [first.id, *(row.id for row in rest)]
            landed = self._find_landed(thread_id, first.sent_body or first.body, first.after_number)
            if landed is not None:
                with self.store.transaction():
                    self.store.mark_own(thread_id, landed.number)
                self.store.mark_sent(ids, self.clock(), landed.number)
                log.info("%s: outbox %s had landed as >>%d; not sent again", thread_id, ids, landed.number)
            elif first.not_before and datetime.fromisoformat(first.not_before) > self.clock():
                log.debug(  # every poll until then; the warning was given when the answer was lost
                    "%s: outbox %s not in the thread yet; looking again until %s",
                    thread_id,
                    first.id,
                    first.not_before,
                )
            else:
                self.store.mark_unsent(ids, "not found in the thread after an unconfirmed send")
                log.warning("%s: outbox %s did not land; it will be sent again", thread_id, ids)

    def _refused_landed(self, thread_id: str) -> None:
        """Rows the board refused (samba, 連続投稿, "later") that it wrote all the same: a board may
        answer an error page for a post it took. Found in the thread after the number the row was
        sent at — alone, or as a part of the post it went in — it is settled there, never sent twice.
        The bot's post is the one `is_own` says is; a bot without a trip also knows a post without
        one by its words (no trip can prove it, and another writer's trip disproves it)."""
        tripless = not any(mark in self.writer.name for mark in "#＃")
        for row in self.store.outbox(thread_id, ["pending"]):
            if not row.attempts:
                continue
            wanted = f"\n\n{comparable(row.body)}\n\n"
            for post in self.store.posts_after(thread_id, row.after_number):
                own = self.is_own(post) or (tripless and not post.trip)
                if own and wanted in f"\n\n{comparable(post.body)}\n\n":
                    with self.store.transaction():
                        self.store.mark_own(thread_id, post.number)
                    self.store.mark_sent(row.id, self.clock(), post.number)
                    log.warning(
                        "%s: outbox %s was refused (%s) but the board wrote it as >>%d; not sent again",
                        thread_id,
                        row.id,
                        row.last_error,
                        post.number,
                    )
                    break

    def _confirm_unseen(self, thread_id: str) -> None:
        """Posts the board said it wrote: shown in the thread → their number is kept; not shown once
        their time is over → pending again (sent at once), with a warning; else looked for again."""
        posts: dict[str, list[OutboxRecord]] = {}
        for row in self.store.unseen(thread_id):
            posts.setdefault(row.batch or row.id, []).append(row)
        now = self.clock()
        for first, *rest in posts.values():
            ids = [first.id, *(row.id for row in rest)]
            landed = self._find_landed(thread_id, first.sent_body or first.body, first.after_number)
            if landed is not None:
                self.store.mark_sent(ids, first_sent_at(first, now), landed.number)
            elif first.not_before and datetime.fromisoformat(first.not_before) <= now:
                why = "the board said it wrote the post (書きこみました), but the thread never showed it"
                self.store.mark_unsent(ids, why)
                log.warning("%s: outbox %s: %s; it will be sent again", thread_id, ids, why)

    def _find_landed(self, thread_id: str, text: str, after_number: int) -> PostRecord | None:
        wanted = comparable(text)
        for post in self.store.posts_after(thread_id, after_number):
            if self.is_own(post) and comparable(post.body) == wanted:
                return post
        return None

    def send(
        self,
        ref: ThreadRef,
        thread_id: str,
        last_number: int,
        others_after: Callable[[int], bool],
        limits: PostLimits | None = None,
        in_a_row: ConsecutiveLimit | None = None,
        game_over: bool = False,
    ) -> SendResult:
        """Send what is due, in order. `others_after(n)` says whether someone else wrote after post n.
        Under a board's pace or `in_a_row` (連投規制), rows that waited go together as one post where
        `limits` allow; the last post 連投規制 allows says the game waits, unless it is the last of a
        `game_over` (nothing more will come)."""
        if self.store.outbox(thread_id, ["sending"]):
            return SendResult(waiting="an unconfirmed post must be looked for in the thread first")
        sent = 0
        rows = self.store.outbox(thread_id, ["pending"])
        index = 0
        while index < len(rows):
            row, now = rows[index], self.clock()
            if not _due(row, now):
                until = datetime.fromisoformat(row.not_before or "")
                return SendResult(
                    sent, waiting=f"the board asked to wait until {row.not_before}", wake_at=until
                )
            if row.wait_after and not others_after(row.wait_after):
                return SendResult(sent, waiting="連続投稿: waiting for someone else to write")
            left = self._room(thread_id, last_number, in_a_row)
            if left == 0:
                return SendResult(sent, waiting="連投規制: the bot wrote its share of the last posts")
            slot = self.pacer.claim(ref.origin, now)
            if slot is not None:
                return SendResult(
                    sent, waiting=f"the board's pace: next post at {slot:%H:%M:%S}", wake_at=slot
                )
            notice = consecutive.HOLD_NOTICE if left == 1 else None
            post = self._one_post(rows[index:], ref, limits, now, batch=in_a_row is not None, notice=notice)
            if index + len(post) == len(rows) and game_over:
                notice = None  # nothing is held: the game's last post says nothing of waiting
            body = "\n\n".join(part.body for part in post)
            if notice and (limits is None or fits_post(f"{body}\n\n{notice}", limits)):
                body = f"{body}\n\n{notice}"  # (a row rendered for a board without the limit: alone)
            ids = [part.id for part in post]
            self.store.mark_sending(ids, last_number, settle_after=now + LANDING_TIME, body=body)
            try:
                outcome = self.writer.reply(ref, body)
            finally:  # the board stamped the post at the latest when its answer arrived
                self.pacer.answered(ref.origin, self.clock())
            result = self._settle(ref, post, outcome, last_number)
            if result is not None:
                return SendResult(sent, closed=result.closed, waiting=result.waiting, wake_at=result.wake_at)
            sent += outcome.posted
            index += len(post)
        return SendResult(sent)

    def _room(self, thread_id: str, last_number: int, in_a_row: ConsecutiveLimit | None) -> int | None:
        """Posts 連投規制 still allows in the thread (None: no limit): its last posts as read, and
        the bot's posts sent after that read (not in it yet: a post seen has a number past it)."""
        if in_a_row is None:
            return None
        recent = self.store.posts_after(thread_id, max(last_number - in_a_row.within, 0))
        unseen = {
            row.batch or row.id
            for row in self.store.outbox(thread_id, ["sending", "sent"])
            if row.after_number >= last_number
        }
        return consecutive.room([post.own for post in recent] + [True] * len(unseen), in_a_row)

    def _one_post(
        self,
        rows: list[OutboxRecord],
        ref: ThreadRef,
        limits: PostLimits | None,
        now: datetime,
        *,
        batch: bool = False,
        notice: str | None = None,
    ) -> list[OutboxRecord]:
        """The first row, with the due rows after it that fit one post with it (and `notice`) — only
        where each post costs: a wait (the board's pace) or a share of the thread (`batch`, 連投規制)."""
        post = rows[:1]
        paced = self.pacer.wait(ref.origin) > 0 or batch
        if limits is None or not paced or rows[0].id in self._alone:
            return post
        tail = [notice] if notice else []
        for row in rows[1:]:
            if not _due(row, now) or row.wait_after or row.id in self._alone:
                break
            if not fits_post("\n\n".join([*(part.body for part in post), row.body, *tail]), limits):
                break
            post.append(row)
        return post

    def _say_refused(self, row: OutboxRecord, message: str, now: datetime) -> None:
        """An answer the board will not take (an NG word echoed from a post, a line it finds too long)
        is not dropped in silence: the players it answers are told, by anchor, in a post of its own
        (once — a notice the board refuses too is only logged)."""
        if row.id.endswith(REFUSED):
            return
        anchors = leading_anchors(row.body)
        notice = refused_notice(board_reason(message))
        with self.store.transaction():
            self.store.queue(row.id + REFUSED, row.thread_id, row.kind, f"{anchors}\n{notice}".strip(), now)

    def _settle(
        self, ref: ThreadRef, post: list[OutboxRecord], outcome: WriteOutcome, last_number: int
    ) -> SendResult | None:
        """Record an outcome for the rows of one post; a SendResult means: stop sending for now."""
        now = self.clock()
        row, ids = post[0], [part.id for part in post]
        if outcome.kind == "posted":  # on the board's word: the thread must show it (`_confirm_unseen`)
            window = min(SEEN_WITHIN * 2**row.attempts, MAX_REST)  # attempts: its sends before this one
            self.store.mark_sent(ids, now, look_until=now + window)
            return None
        log.warning("%s: outbox %s: %s (%s)", row.thread_id, ids, outcome.kind, outcome.message)
        if outcome.kind == "rejected":
            if len(post) > 1:  # the board may refuse the whole and take each part: send them singly
                self._alone.update(ids)
                self.store.mark_unsent(ids, outcome.message)
                return SendResult(waiting=f"refused as one post: {outcome.message}", wake_at=now)
            self.store.drop(row.id, outcome.message)
            self._say_refused(row, outcome.message, now)
            return None
        if outcome.kind == "uncertain":
            # stays `sending`: the thread is read first; a board in trouble gets longer and longer rests
            rest = LANDING_TIME.total_seconds()
            if outcome.retry_after:
                rest = max(rest, min(outcome.retry_after * 2**row.attempts, MAX_REST.total_seconds()))
            self.store.mark_unconfirmed(ids, outcome.message, not_before=now + timedelta(seconds=rest))
            return SendResult(waiting=f"unconfirmed: {outcome.message}", wake_at=now + LANDING_TIME)
        if outcome.kind == "retry":
            rest = outcome.retry_after or 60
            if outcome.backoff:  # the board's trouble has no stated end: longer and longer rests
                rest = min(rest * 2**row.attempts, MAX_REST.total_seconds())
            until = now + timedelta(seconds=rest)
            if outcome.paced:
                until = self.pacer.refused(ref.origin, rest, outcome.message, now)
            self.store.mark_unsent(ids, outcome.message, not_before=until)
            return SendResult(waiting=outcome.message, wake_at=until)
        if outcome.kind == "wait_for_others":
            self.store.mark_unsent(ids, outcome.message, wait_after=last_number)
            return SendResult(waiting=outcome.message)
        self.store.mark_unsent(ids, outcome.message)
        return SendResult(closed=outcome.message)


def first_sent_at(row: OutboxRecord, now: datetime) -> datetime:
    """When the board said it wrote the row (its sent time is kept when the thread shows it)."""
    return datetime.fromisoformat(row.sent_at) if row.sent_at else now


def _due(row: OutboxRecord, now: datetime) -> bool:
    return not row.not_before or datetime.fromisoformat(row.not_before) <= now


def outbox_rows(
    changes: Iterable[Change | Outgoing], thread_id: str, limits: PostLimits, now: datetime
) -> list[Change]:
    """A poll's decisions with each report to post (an `Outgoing`) rendered under the board's limits
    into outbox rows (`Queue`), `BASE/0`, `BASE/1`… in order; other decisions pass unchanged."""
    rows: list[Change] = []
    for change in changes:
        if not isinstance(change, Outgoing):
            rows.append(change)
            continue
        for index, body in enumerate(render_posts(change.reports, limits)):
            rows.append(Queue(f"{change.base}/{index}", thread_id, change.kind, body, now))
    return rows
