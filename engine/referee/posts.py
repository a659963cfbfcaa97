"""Reading the posts of one poll: dice answers, an immediate game's steps, orders with their receipt,
GM commands, and the day keys the dice of those posts need published — all in one batch of posts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta

from engine import keys
from engine.clock import periods
from engine.clock.periods import readable, secret_commitment_line
from engine.dice import answers
from engine.dice.disclosure import Disclosure, PeriodStatus, disclosure_report, plan
from engine.referee.game import Game, PostView
from engine.referee.gm import carry_out
from engine.referee.isolation import internal_error, isolated
from engine.report import Block, Report, anchor, heading, line, report
from engine.ruleset import AnnotatesReceipts, ImmediateRuleset, Order, ReadsWithState, Rejection, players_of
from parser.bbs_dice import is_quote
from parser.gm import find_gm_commands
from parser.gm_words import FULL_HELP_WORDS, HELP_WORDS, find_words, is_word
from store.records import LogRecord, PeriodRecord, ResolutionRecord


def read_posts(game: Game, posts: Sequence[PostView]) -> str | None:
    """Answer the posts read in this poll; returns the thread URL a GM moved the game to, if any."""
    game.reading(posts)
    with isolated(game, "the opening") as step:  # a scenario's fault, logged: the posts still count
        opening = open_steps(game)
    if step.failed:
        opening = None
    batch = _Batch(reports=[opening] if opening is not None else [])
    for post in posts:
        if post.date is not None and post.date + timedelta(seconds=1) <= game.setup.joined:
            continue  # written before the bot joined the thread (dates have whole seconds)
        part = _Batch()
        with isolated(game, f"post {post.number}") as step:
            _read(game, post, part)
        batch.add(internal_error(post.number) if step.failed else part)
    handled = [post.number for post in posts]
    disclosure = _disclosure(game, batch.answering)
    if not handled and not disclosure and opening is None:
        return None
    base = _batch_id(game, handled, disclosure)
    days = (*disclosure.commit, *disclosure.reveal)
    commitments = {day: keys.commitment(game.setup.day_key(day)) for day in days}
    reports = batch.reports
    if disclosure:
        keys_of = {day: game.setup.day_key(day) for day in commitments}
        reports.insert(0, disclosure_report(disclosure, keys_of, commitments))
    if batch.readings:
        reports += take_orders(game, batch.readings, base)
    follow: str | None = batch.follow
    for post, gm_lines in batch.commands:
        with isolated(game, f"GM commands of post {post.number}") as step:
            echo, moved = carry_out(game, post, gm_lines)
            follow = moved or follow
        if step.failed:
            echo = internal_error(post.number)
        if echo is not None:
            reports.append(echo)
    game.send(base, "answer", *reports)
    game.book.mark_handled(game.thread.id, handled)
    if disclosure:
        _record_disclosure(game, disclosure, commitments, f"{base}/0")
    return follow


@dataclass
class _Batch:
    """What the posts of one poll hold, gathered before anything is decided."""

    reports: list[Report] = field(default_factory=list)
    answering: set[str] = field(default_factory=set)  # the days whose dice are answered
    readings: list[tuple[PostView, periods.PostReading, int]] = field(default_factory=list)
    commands: list[tuple[PostView, list]] = field(default_factory=list)
    follow: str | None = None  # the thread a GM line carried out while reading moved the game to

    def add(self, other: _Batch | Report) -> None:
        """What one post held (or, when reading it failed, the answer that says so)."""
        if isinstance(other, Report):
            self.reports.append(other)
            return
        self.reports += other.reports
        self.answering |= other.answering
        self.readings += other.readings
        self.commands += other.commands
        self.follow = other.follow or self.follow


def _read(game: Game, post: PostView, batch: _Batch) -> None:
    help_answer = _help(game, post)
    if help_answer is not None:
        batch.reports.append(help_answer)
    gm_lines = find_gm_commands(readable(post.body))
    first = _first_step_line(game, post, gm_lines)
    if first is not None:  # a GM's step post: the GM lines written before the step run first, in order
        before = [g for g in gm_lines if g.line < first]
        gm_lines = [g for g in gm_lines if g.line >= first]
        if before:
            echo, batch.follow = carry_out(game, post, before)
            if echo is not None:
                batch.reports.append(echo)
    if gm_lines:
        batch.commands.append((post, gm_lines))
    day = keys.day_of(post.date or game.now)
    answer = _answer(game, post, day)
    if answer is not None:
        batch.reports.append(answer)
        batch.answering.add(day)
    if game.setup.clocked and not (gm_lines and post.trip in game.setup.gm_trips):
        reading = _read_orders(game, post)
        if reading is not None:
            batch.readings.append(reading)


def _first_step_line(game: Game, post: PostView, gm_lines: list) -> int | None:
    """In a GM's post to an immediate game, the first line the game reads (None: none, or no GM)."""
    ruleset = game.ruleset
    if not gm_lines or not isinstance(ruleset, ImmediateRuleset) or post.trip not in game.setup.gm_trips:
        return None
    taken = {g.line for g in gm_lines}
    for number, text in enumerate(readable(post.body).split("\n")):
        if number not in taken and ruleset.parse_post(text) is not None:
            return number
    return None


MAX_HELP_ANSWERS = 5  # short ヘルプ answers a period, whoever asks: new names cannot flood the thread


def _help(game: Game, post: PostView) -> Report | None:
    """ヘルプ: the order forms in short, once per writer a period (a few a period in all); ヘルプ全文:
    the whole HELP, once per thread a period — asked again, the short answer says where it is."""
    full = bool(find_words(post.body, FULL_HELP_WORDS))
    if not full and not find_words(post.body, HELP_WORDS):
        return None
    period = game.current_period()
    ruleset = game.ruleset
    given = next(iter(_answered(game, "help_full", period)), None)
    if full and given is None:
        game.book.log("help_full", {"writer": post.writer}, game.now, **game.where(post, period))
        return report(*(line(text) for text in ruleset.HELP.strip().split("\n")), reply_to=(post.number,))
    short = _answered(game, "help", period)
    mine = any(e.author == post.author or e.args.get("writer") == post.writer for e in short)
    if mine or len(short) >= MAX_HELP_ANSWERS:
        return None  # a flood of ヘルプ gets a few answers a period
    game.book.log("help", {"writer": post.writer}, game.now, **game.where(post, period))
    where = (
        line("ルール全文はこのピリオドに ", anchor(given.post), " への返信で書き込みました")
        if given is not None and given.post is not None
        else line("「ヘルプ全文」と書くとルール全文を書き込みます")
    )
    return report(
        heading(f"{ruleset.NAME} ヘルプ"),
        *(line(text) for text in ruleset.summary()),
        where,
        reply_to=(post.number,),
    )


def _answered(game: Game, kind: str, period: int) -> list[LogRecord]:
    """The answers of this kind ("help", "help_full") given in this thread this period."""
    return [e for e in game.book.log_entries([kind]) if e.period == period and e.thread_id == game.thread.id]


def _batch_id(game: Game, handled: list[int], disclosure: Disclosure) -> str:
    span = f"{handled[0]}-{handled[-1]}" if handled else "none"
    days = "+".join((*disclosure.commit, *disclosure.reveal))
    return f"{game.id}/{game.thread.key}/{span}/{days}"


def _answer(game: Game, post: PostView, day: str) -> Report | None:
    """The immediate game's step for this post, or else the answer to its dice."""
    ruleset = game.ruleset
    if isinstance(ruleset, ImmediateRuleset):
        step = apply_step(game, ruleset, post, day)
        if step is not None:
            return step
    if not game.setup.dice:
        return None
    return answers.answer(
        game.thread.key,
        post.number,
        post.body,
        game.setup.day_key(day),
        game.setup.secret_keys(game.thread.key, post.number),
    )


def apply_step(game: Game, ruleset: ImmediateRuleset, post: PostView, day: str) -> Report | None:
    """An immediate game's step for this post, stored as the next "period" so that 巻き戻し undoes it
    like any resolution."""
    parsed = ruleset.parse_post(readable(post.body))
    if parsed is None:
        return None
    if isinstance(parsed, Rejection):
        return report(line(parsed.reason), reply_to=(post.number,))
    step = game.current_period()
    state = game.state_before(step)
    # the board's ID as the store keeps it, so that the fold of the log (refold, verify) hands the
    # rules the same order as this poll does
    shown = game.author_id(game.thread.id, post.number)
    gm = game.is_gm(post.author)
    order = Order(
        post.number, 0, post.author, post.author, parsed.command, parsed.canonical, post.date, gm, shown
    )
    source = game.setup.step_source(game.thread.key, post.number, day)
    new_state, answer = ruleset.apply(state, order, source)
    state_json = game.state_json(new_state)
    game.book.save_resolution(
        ResolutionRecord(game.id, step, state_json, f"post/{post.number}", game.now.isoformat(), 1)
    )
    head = [secret_commitment_line(keys.commitment(game.setup.rules_secret))] if step == 1 else []
    tail: list[Block] = []
    if ruleset.finished(new_state):
        tail = periods.finish_blocks(game.setup.rules_secret)
        game.book.set_status("finished")
    answer = replace(answer, blocks=(*head, *answer.blocks, *tail))
    return replace(answer, reply_to=(post.number,))


OPENING = "opening"  # where the step an immediate game's opening is stored as came from


def open_steps(game: Game, day: str | None = None) -> Report | None:
    """An immediate game's opening (`ImmediateRuleset.opening`), posted before any post is answered:
    stored as step 1, so its state (what it committed to) is folded like a step's, and 巻き戻し of
    every step posts it again, the same (its dice are those of post 0, on `day`: today's)."""
    ruleset = game.ruleset
    if not isinstance(ruleset, ImmediateRuleset) or not ruleset.steps or game.book.last_resolution():
        return None
    source = game.setup.step_source(game.thread.key, 0, day or keys.day_of(game.now))
    opened = ruleset.opening(game.state_before(1), source)
    if opened is None:
        return None
    state, answer = opened
    state_json = game.state_json(state)
    game.book.save_resolution(ResolutionRecord(game.id, 1, state_json, OPENING, game.now.isoformat(), 0))
    head = secret_commitment_line(keys.commitment(game.setup.rules_secret))
    return replace(answer, blocks=(*answer.blocks, head))


def _disclosure(game: Game, answering: set[str]) -> Disclosure:
    if not game.setup.dice:
        return Disclosure()
    statuses = {
        record.period: PeriodStatus(bool(record.committed_in), bool(record.revealed_in))
        for record in game.book.periods()
    }
    return plan(statuses, game.now, answering=answering)


def _record_disclosure(game: Game, disclosure: Disclosure, commitments: dict[str, str], first: str) -> None:
    """What the post `first` published: a new record for each day it commits (`plan` commits a day
    once), the reveal written on each revealed day's record (`plan` reveals only committed days)."""
    for day in disclosure.commit:
        game.book.save_period(PeriodRecord(game.id, day, commitments[day], first, None))
    for day in disclosure.reveal:
        committed = game.book.period(day)
        assert committed is not None
        game.book.save_period(replace(committed, revealed_in=first))


# -- orders ---------------------------------------------------------------------------------------


def _read_orders(game: Game, post: PostView) -> tuple[PostView, periods.PostReading, int] | None:
    period = game.period_of_post(post)
    # A game that reads lines with its own words (names) gets the running period's state: a later
    # period's state does not exist yet, and names do not change between periods.
    state = game.state_before(game.current_period()) if isinstance(game.ruleset, ReadsWithState) else None
    reading = periods.read_post(
        game.ruleset,
        game_id=game.id,
        thread_id=game.thread.id,
        post=post.number,
        author=post.author,
        written_at=post.date.isoformat() if post.date else None,
        body=post.body,
        period=period,
        cancel_words=game.setup.cancel_words,
        ready_words=game.setup.ready_words,
        is_word=is_word,
        is_quote=is_quote,
        state=state,
    )
    for order in reading.orders:
        game.carry(order)
    if reading.orders or reading.cancelled or reading.ready:
        return post, reading, period
    return None


def take_orders(
    game: Game, readings: list[tuple[PostView, periods.PostReading, int]], base: str
) -> list[Report]:
    """Take the orders read in this poll, post by post (a 取消 withdraws what its author wrote before
    it, in this poll too): the receipt, and the answer to each post whose orders could not be taken."""
    current = game.current_period()
    state = game.state_before(current)
    taken, failed = [], []
    for post, reading, period in readings:
        with isolated(game, f"orders of post {post.number}") as step:
            taken.append((post, _take(game, state, current, post, reading, period, base), period))
        if step.failed:
            failed.append(internal_error(post.number))
    deadline = game.period_clock().deadline(current)
    periods_of = {post.number: period for post, _, period in taken}
    over = game.book.status() == "finished"
    receipt = periods.receipt(
        periods_of, [(post.number, reading) for post, reading, _ in taken], current, deadline, over
    )
    return [*([receipt] if receipt is not None else []), *failed]


def _take(
    game: Game,
    state: object,
    current: int,
    post: PostView,
    reading: periods.PostReading,
    period: int,
    base: str,
) -> periods.PostReading:
    """One post's orders checked, its 取消 and 準備完了 logged, its orders stored: what its receipt says.
    An order for a later period (written after the deadline, read in the grace time) is judged by the
    state it will meet, which does not exist yet: resolution says what becomes of it."""
    if game.book.status() == "finished":  # the receipt promises nothing of a game that has ended
        refused = tuple(o.refused(periods.GAME_OVER) if o.accepted else o for o in reading.orders)
        reading = replace(reading, orders=refused, cancelled=False, ready=False)
    elif period == current:
        reading = replace(reading, orders=tuple(_checked(game, state, o) for o in reading.orders))
    if reading.cancelled:
        mine = [
            order
            for order in game.book.orders(period, ["accepted"])
            if order.author == post.author and order.post < post.number
        ]
        for order in mine:
            game.book.set_order_status(order, "cancelled", f">>{post.number} 取消")
        if not mine:  # the receipt says what was done: nothing
            reading = replace(reading, cancelled=False, nothing_cancelled=True)
    if period == current:  # the receipt's word is a promise about the state the order meets
        reading = replace(reading, orders=_remarked(game, state, period, reading.orders))
    if reading.ready and (reading.unread or not all(order.accepted for order in reading.orders)):
        # Ready with a refused line would close the period before the line could be fixed.
        reading = replace(reading, ready=False, ready_refused=True)
    if reading.ready and period == current and (why := _ready_problem(game, state, post.author)):
        reading = replace(reading, ready=False, ready_ignored=why)  # a receipt says what counts
    if reading.ready:
        game.book.log("ready", {"player": post.author}, game.now, **game.where(post, period))
    game.book.save_orders(replace(order.row, receipt=f"{base}/0") for order in reading.orders)
    return reading


def _ready_problem(game: Game, state: object, author: str) -> str | None:
    """Why `author`'s 準備完了 does not count toward ending the period early, or None when it does: the
    schedule closes no period early, the game lists no players (then nothing closes it early), or he
    speaks for none of its players."""
    schedule = game.setup.schedule
    if schedule is None or not schedule.early:
        return periods.READY_NO_EARLY
    players = game.ruleset.players(state)
    if not players:
        return periods.READY_NO_PLAYERS
    if set(players_of(game.ruleset, state, author)) & set(players):
        return None
    return periods.READY_IGNORED


def _remarked(
    game: Game, state: object, period: int, orders: tuple[periods.ReadOrder, ...]
) -> tuple[periods.ReadOrder, ...]:
    """The ruleset's word on each accepted order, given the accepted orders of its period before it —
    or its refusal, when the ruleset says the order will not count after them (`AnnotatesReceipts`)."""
    ruleset = game.ruleset
    if not isinstance(ruleset, AnnotatesReceipts):
        return orders
    earlier = game.accepted_orders(period)
    out = []
    for order in orders:
        if order.accepted:
            taken = game.order(order.row)
            assert taken is not None  # its command was carried when it was read
            if (why := ruleset.void(state, taken, earlier)) is not None:
                out.append(order.refused(why))
                continue
            note = ruleset.remark(state, taken, earlier)
            order = replace(order, note=note) if note else order
            earlier.append(taken)
        out.append(order)
    return tuple(out)


def _checked(game: Game, state: object, order: periods.ReadOrder) -> periods.ReadOrder:
    if not order.accepted:
        return order
    taken = game.order(order.row)
    assert taken is not None  # its command was carried when it was read
    reason = game.ruleset.check(state, taken)
    return order.refused(reason) if reason else order
