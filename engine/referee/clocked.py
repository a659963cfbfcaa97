"""A game on the clock, after the posts of a poll are read: open it, remind the late, close a period
early when every player is ready, and resolve every period that is due — each exactly once, its
resolution and its report decided together.
"""

from __future__ import annotations

import logging
from datetime import datetime

from engine.clock import periods
from engine.clock.period_clock import EarlyClose, Extension, PeriodClock
from engine.clock.schedule import describe
from engine.clock.words import ScheduleError
from engine.keys import commitment
from engine.referee.game import Game
from engine.referee.isolation import hold, is_held, isolated
from engine.report import report
from engine.rng import SeededSource, SplitSource
from engine.ruleset import AssumesOrders, ClockedRuleset, Order, ShowsOpening
from store.records import ResolutionRecord

log = logging.getLogger("threadgm")


def run_periods(game: Game) -> None:
    """Open the game, remind the late, end a period early when all are ready, resolve what is due —
    each period's part isolated: one that fails holds its period (`engine.referee.isolation`)."""
    period = game.current_period()
    if is_held(game, period):
        return
    with isolated(game, f"the clock of period {period}") as step:
        _run(game)
    if step.failed:
        hold(game, game.current_period(), step)


def _run(game: Game) -> None:
    if game.book.started() is None:
        _open(game)
    if game.book.status() in ("paused", "finished"):
        return
    _remind(game)
    _close_early_when_ready(game)
    clock = game.clock()
    assert clock is not None
    for period in clock.periods_due(game.current_period() - 1, game.now):
        with isolated(game, f"the resolution of period {period}") as step:
            resolve(game, period)
            over = game.finished(game.state_before(period + 1))
        if step.failed:
            hold(game, period, step)
            return
        if over:
            _finish(game, period)
            return


def _open(game: Game) -> None:
    game.book.set_started(game.now)
    first = game.state_before(1)
    clock = game.period_clock()
    shows = game.ruleset if isinstance(game.ruleset, ShowsOpening) else None
    opening = periods.opening_report(
        game.ruleset.NAME,
        1,
        clock.deadline(1),
        commitment(game.setup.period_key(1)),
        describe(clock.schedule),
        secret_commitment=commitment(game.setup.rules_secret),
        rules=shows.rules_in_force(first) if shows else (),
        players=game.ruleset.players(first),
        orders=game.ruleset.summary(),
        view=shows.opening_view(first) if shows else (),
    )
    game.send(f"{game.id}/opening", "opening", opening)


def _finish(game: Game, last: int) -> None:
    """The game is over after period `last`: no more periods, and the secret dice's key is published,
    once. Orders taken for a later period (written after the last deadline) are void, and it says so."""
    game.book.set_status("finished")
    unrun = [order for order in game.book.orders(None, ["accepted"]) if order.period > last]
    for order in unrun:
        game.book.set_order_status(order, "voided", periods.GAME_OVER)
    ended = [(order.post, order.canonical) for order in unrun]
    finish = report(*periods.finish_blocks(game.setup.rules_secret, ended), kind="finish")
    game.send(f"{game.id}/finished", "finish", finish)


def _remind(game: Game) -> None:
    clock = game.clock()
    assert clock is not None
    period = game.current_period()
    sent = [e for e in game.book.log_entries(["reminder"]) if e.period == period]
    last_sent = datetime.fromisoformat(sent[-1].args["at"]) if sent else None
    due = clock.due_reminders(period, last_sent, game.now)
    if not due:
        return
    missing = game.missing_players(period)
    game.book.log("reminder", {"at": due[-1].at.isoformat()}, game.now, period=period)
    if missing:
        reminder = periods.reminder(period, clock.deadline(period), missing)
        game.send(f"{game.id}/P{period}/remind/{due[-1].at.isoformat()}", "reminder", reminder)


def _close_early_when_ready(game: Game) -> None:
    schedule = game.setup.schedule
    if schedule is None or not schedule.early:
        return
    period = game.current_period()
    state = game.state_before(period)
    players = game.ruleset.players(state)
    if not players:
        return
    already = any(e.period == period for e in game.book.log_entries(["early"]))
    if set(players) <= game.ready_players(period, state) and not already:
        game.book.log("early", {"at": game.now.isoformat(), "why": "ready"}, game.now, period=period)


def _orders_of(game: Game, period: int) -> list[Order]:
    """The period's orders that count, each with the command it was read into (in this poll, or
    read back from its stored canonical form)."""
    orders = []
    for row in periods.effective_orders(game.book.orders(period)):  # the accepted ones, the last of each key
        order = game.order(row)
        if order is None:
            log.error("%s: stored order %r no longer parses; left out", game.id, row.canonical)
            continue
        orders.append(order)
    return orders


def _time_limit(clock: PeriodClock | None, period: int) -> datetime | None:
    """Period n's deadline as its players were given it: without the GM's 延長 of that period (lines
    written after it, in the time the GM added, are late for rules that count lateness)."""
    if clock is None:
        return None
    moved = (Extension, EarlyClose)  # the GM's changes of this period's close
    given = [a for a in clock.adjustments if not (isinstance(a, moved) and a.period == period)]
    try:
        return PeriodClock(clock.schedule, clock.start, given).deadline(period)
    except ScheduleError:  # a later adjustment needs the moved close: the close as it is, then
        return clock.deadline(period)


def resolve(game: Game, period: int) -> None:
    """Resolve one period: the resolution and its report are decided together, once."""
    ruleset = game.ruleset
    assert isinstance(ruleset, ClockedRuleset)
    state = game.state_before(period)
    orders = _orders_of(game, period)
    assumed = []
    for player in game.missing_players(period) if isinstance(ruleset, AssumesOrders) else ():
        default = ruleset.missing(state, player)
        if default is not None:
            orders.append(Order(0, len(assumed), player, player, default.command, default.canonical))
            assumed.append((player, default.canonical))
    source = SplitSource(SeededSource(game.setup.period_key(period)), SeededSource(game.setup.rules_secret))
    clock = game.clock()
    new_state, inner = ruleset.resolve_timed(state, orders, source, _time_limit(clock, period))
    redo = sum(1 for e in game.book.log_entries(["rollback"]) if e.period == period)
    over = ruleset.finished(new_state)  # no next period is announced after the end
    final = periods.resolution_report(
        period,
        inner,
        key_hex=game.setup.period_key(period).hex(),
        assumed=assumed,
        next_period=None if over else period + 1,
        next_deadline=clock.deadline(period + 1) if clock and not over else None,
        next_commitment=None if over else commitment(game.setup.period_key(period + 1)),
        redo=bool(redo),
    )
    base = f"{game.id}/P{period}/{redo}"
    state_json = game.state_json(new_state)
    game.book.save_resolution(
        ResolutionRecord(game.id, period, state_json, f"{base}/0", game.now.isoformat(), len(orders))
    )
    game.send(base, "resolution", final)
    log.info("%s: period %d resolved with %d order(s)", game.id, period, len(orders))
