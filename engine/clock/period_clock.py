"""Numbered periods on a schedule, and the GM's adjustments folded over them (pure: no clock is read).

Periods are numbered 1, 2, 3… from the game's start: period 1 opens at the start, period n closes at
its deadline and period n+1 opens at that moment. A period's deadline is the first boundary of the
schedule strictly after it opened — unless it opened between boundaries (the start, an early close, a
moved deadline) and that boundary is nearer than the schedule's `min_period`: such boundaries are
skipped, so no period the schedule makes on its own is that short, and the regular periods are never
touched. A post belongs to the first period whose deadline is at or after its board date, so a post
stamped exactly at a deadline still counts; the period is resolved at deadline + grace.

The GM changes the clock without rewriting history, by adjustments applied in order:

- `Extension(n, new_deadline)`: period n closes at `new_deadline` instead (later or earlier, but after
  it opened); period n+1 then opens there. `PeriodClock.extension` builds one from a duration, an
  absolute moment or a bare clock time (the next such time after the current deadline).
- `Pause(start, end)`: paused time does not count for the period it interrupts — the one whose deadline
  is the first after `start` — which closes the paused length (end − start) later; so does any
  deadline the GM had already moved past `start`. The schedule's own boundaries stay where the players
  were told they are: the period after a pushed deadline opens off the grid and closes at the next
  regular boundary (with `min_period`). So a 3-hour pause before a daily 21:00 deadline closes that
  period at 00:00 and the next one at 21:00 as usual. A deadline exactly at `start` has already come
  and is not pushed, nor is an early close. A grace already running when the pause starts is not
  stopped. `Pause(start)` with no end pauses until a later `Resume(at)`, which closes it as if it had
  been `Pause(start, at)` in its place (at its own `start`: no pause at all); until then no deadline after `start` exists (None), except
  one the GM sets during the pause with an Extension (the list position decides: a pause moves only
  what was set before it). Pauses may not overlap.
- `EarlyClose(n, at)`: period n ended at `at` (即時更新, or every player ready) and is resolved then,
  with no grace; period n+1 opens at `at` and closes at the next boundary (with `min_period`).

Adjustments are checked when folded (ScheduleError in Japanese); `PeriodClock.with_adjustments` also
refuses any that would change a period already resolved, so a stored list always folds again cleanly.
A period is never resolved before the one before it: `resolve_at(n)` is at least `resolve_at(n-1)`.
Reminders are due at deadline − each reminder offset, while the deadline is still ahead; one that
falls inside a pause is due when the pause ends, and one at or before the period's opening is dropped.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from engine.clock.grid import Schedule
from engine.clock.words import JST, ScheduleError, format_moment, require_aware

_TICK = timedelta(microseconds=1)
# Far more periods than any game runs; a bound so that a forged far-future date cannot hang the bot.
MAX_PERIODS = 100_000


@dataclass(frozen=True)
class Extension:
    """Period `period` closes at `new_deadline` instead."""

    period: int
    new_deadline: datetime


@dataclass(frozen=True)
class Pause:
    """The clock stops from `start` to `end` (None: until a later `Resume`)."""

    start: datetime
    end: datetime | None = None


@dataclass(frozen=True)
class Resume:
    """The pause still open ends at `at`."""

    at: datetime


@dataclass(frozen=True)
class EarlyClose:
    """Period `period` ended at `at` and is resolved at once."""

    period: int
    at: datetime


Adjustment = Extension | Pause | Resume | EarlyClose


@dataclass(frozen=True)
class Reminder:
    """A reminder due for `period`: `before` (the schedule's offset) ahead of `deadline`, due at `at`."""

    period: int
    at: datetime
    before: timedelta
    deadline: datetime


@dataclass(frozen=True)
class _Fixed:
    at: datetime | None
    early: bool


class _Timeline:
    """The deadlines that follow from a start, the pauses so far and the fixed deadlines so far."""

    def __init__(
        self,
        schedule: Schedule,
        start: datetime,
        pauses: tuple[Pause, ...] = (),
        fixed: dict[int, _Fixed] | None = None,
    ) -> None:
        self.schedule = schedule
        self.start = start
        self.pauses = pauses
        self.fixed = dict(fixed or {})
        self._deadlines: list[datetime | None] = []
        self._resolves: list[datetime | None] = []

    def next_boundary(self, after: datetime) -> datetime | None:
        """The schedule's first boundary strictly after `after`; None past the start of an open pause."""
        boundary = self.schedule.next_boundary(after)
        if self.pauses and self.pauses[-1].end is None and boundary > self.pauses[-1].start:
            return None
        return boundary

    def on_grid(self, moment: datetime) -> bool:
        return self.next_boundary(moment - _TICK) == moment

    def _extend(self, count: int) -> None:
        if count > MAX_PERIODS:
            raise ScheduleError(f"期の数が多すぎます（{MAX_PERIODS}期まで）")
        while len(self._deadlines) < count:
            number = len(self._deadlines) + 1
            opens = self.start if number == 1 else self._deadlines[-1]
            fixed = self.fixed.get(number)
            if opens is None:
                deadline = None
            elif fixed is not None:
                deadline = fixed.at
            else:
                deadline = self.next_boundary(opens)
                if self.schedule.min_period and not self.on_grid(opens):
                    while deadline is not None and deadline - opens < self.schedule.min_period:
                        deadline = self.next_boundary(deadline)
            if deadline is None:
                resolve = None
            else:
                resolve = deadline if fixed is not None and fixed.early else deadline + self.schedule.grace
                previous = self._resolves[-1] if self._resolves else None
                if previous is not None and previous > resolve:
                    resolve = previous
            self._deadlines.append(deadline)
            self._resolves.append(resolve)

    def deadline(self, number: int) -> datetime | None:
        self._extend(number)
        return self._deadlines[number - 1]

    def opens(self, number: int) -> datetime | None:
        return self.start if number == 1 else self.deadline(number - 1)

    def resolve_at(self, number: int) -> datetime | None:
        self._extend(number)
        return self._resolves[number - 1]

    def period_at(self, moment: datetime) -> int:
        if moment < self.start:
            return 0
        # Deadlines never decrease; grow the list until one is at or after `moment` (or none exists).
        while not self._deadlines or (self._deadlines[-1] is not None and self._deadlines[-1] < moment):
            self._extend(len(self._deadlines) + 1)
        known: list[datetime] = []
        for deadline in self._deadlines:
            if deadline is None:
                break
            known.append(deadline)
        return bisect_left(known, moment) + 1

    def check(self) -> None:
        """Every fixed deadline after its period opened (an early close may be at the opening itself)."""
        for number in sorted(self.fixed):
            fixed = self.fixed[number]
            opens = self.opens(number)
            if fixed.at is None:
                continue
            if opens is None:
                raise ScheduleError(
                    f"第{number - 1}期が一時停止中で締切がないので、第{number}期は始まっていません"
                )
            if fixed.at < opens or (fixed.at == opens and not fixed.early):
                what = "即時更新" if fixed.early else "締切"
                raise ScheduleError(
                    f"第{number}期の{what}（{format_moment(fixed.at, year=True)}）が"
                    f"その期の始まり（{format_moment(opens, year=True)}）より前になります"
                )


def _check_period(number: int) -> None:
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ScheduleError(f"期の番号は1以上の整数で指定してください（{number}）")


def _pair_resumes(adjustments: Sequence[Adjustment]) -> list[Adjustment]:
    """The adjustments with each open Pause closed by its Resume, where that pause stands in the list;
    a Resume at the pause's own moment (停止 and 再開 read in one poll) leaves no pause at all."""
    items: list[Adjustment | None] = list(adjustments)
    open_pause: tuple[int, Pause] | None = None
    for index, adjustment in enumerate(items):
        if isinstance(adjustment, Pause):
            if open_pause is not None:
                raise ScheduleError("一時停止中にさらに一時停止はできません（先に再開してください）")
            if adjustment.end is None:
                open_pause = (index, adjustment)
        elif isinstance(adjustment, Resume):
            if open_pause is None:
                raise ScheduleError("一時停止していないので再開できません")
            start = open_pause[1].start
            items[open_pause[0]] = None if adjustment.at == start else Pause(start, adjustment.at)
            open_pause = None
    return [item for item in items if item is not None]


def _checked_pause(adjustment: Pause, pauses: tuple[Pause, ...]) -> Pause:
    """The pause with aware times, refused if it ends before it starts or overlaps the last one."""
    pause = Pause(require_aware(adjustment.start), adjustment.end and require_aware(adjustment.end))
    if pause.end is not None and pause.end <= pause.start:
        raise ScheduleError(
            f"再開（{format_moment(pause.end, year=True)}）は一時停止"
            f"（{format_moment(pause.start, year=True)}）より後にしてください"
        )
    if pauses and pauses[-1].end is not None and pause.start < pauses[-1].end:
        raise ScheduleError(
            f"一時停止（{format_moment(pause.start, year=True)}から）が前の一時停止"
            f"（{format_moment(pauses[-1].end, year=True)}まで）と重なっています"
        )
    return pause


def _with_pause(timeline: _Timeline, adjustment: Pause) -> _Timeline:
    """The timeline with one more pause, which pushes deadlines after its start by its length."""
    pauses, fixed = timeline.pauses, dict(timeline.fixed)
    pause = _checked_pause(adjustment, pauses)
    length = None if pause.end is None else pause.end - pause.start
    # The interrupted period closes later; so do deadlines the GM moved past the pause.
    # Early closes happened and stay.
    interrupted = max(timeline.period_at(pause.start + _TICK), 1)
    if interrupted not in fixed and (deadline := timeline.deadline(interrupted)) is not None:
        fixed[interrupted] = _Fixed(deadline, early=False)
    for number, entry in fixed.items():
        if not entry.early and entry.at is not None and entry.at > pause.start:
            fixed[number] = _Fixed(None if length is None else entry.at + length, early=False)
    return _Timeline(timeline.schedule, timeline.start, (*pauses, pause), fixed)


def _with_extension(timeline: _Timeline, adjustment: Extension) -> _Timeline:
    _check_period(adjustment.period)
    fixed = dict(timeline.fixed)
    fixed[adjustment.period] = _Fixed(require_aware(adjustment.new_deadline), early=False)
    return _Timeline(timeline.schedule, timeline.start, timeline.pauses, fixed)


def _with_early_close(timeline: _Timeline, adjustment: EarlyClose) -> _Timeline:
    _check_period(adjustment.period)
    at = require_aware(adjustment.at)
    current = timeline.deadline(adjustment.period)
    if current is not None and at > current:
        raise ScheduleError(
            f"第{adjustment.period}期の締切（{format_moment(current, year=True)}）より後に即時更新はできません"
        )
    fixed = dict(timeline.fixed)
    fixed[adjustment.period] = _Fixed(at, early=True)
    return _Timeline(timeline.schedule, timeline.start, timeline.pauses, fixed)


def _fold(schedule: Schedule, start: datetime, adjustments: Sequence[Adjustment]) -> _Timeline:
    """Apply the adjustments in order, each checked against the timeline the earlier ones made."""
    timeline = _Timeline(schedule, start)
    for adjustment in _pair_resumes(adjustments):
        if isinstance(adjustment, Pause):
            timeline = _with_pause(timeline, adjustment)
        elif isinstance(adjustment, Extension):
            timeline = _with_extension(timeline, adjustment)
        elif isinstance(adjustment, EarlyClose):
            timeline = _with_early_close(timeline, adjustment)
        elif not isinstance(adjustment, Resume):
            raise TypeError(f"not a schedule adjustment: {adjustment!r}")
        timeline.check()
    return timeline


class PeriodClock:
    """The periods of one game: a schedule, the start, and the GM's adjustments in the order made.

    Immutable; deadlines are computed on demand and remembered. Methods raise ScheduleError (Japanese)
    for impossible adjustments when the clock is built, and ValueError for naive datetimes.
    """

    def __init__(self, schedule: Schedule, start: datetime, adjustments: Iterable[Adjustment] = ()) -> None:
        self.schedule = schedule
        self.start = require_aware(start)
        self.adjustments: tuple[Adjustment, ...] = tuple(adjustments)
        self._timeline = _fold(schedule, self.start, self.adjustments)

    def __repr__(self) -> str:
        return f"PeriodClock({self.schedule!r}, {self.start!r}, {self.adjustments!r})"

    def deadline(self, period: int) -> datetime | None:
        """When period n closes (posts stamped at or before it count); None while paused indefinitely."""
        _check_period(period)
        return self._timeline.deadline(period)

    def opens(self, period: int) -> datetime | None:
        """The start for period 1, else the deadline of the period before."""
        _check_period(period)
        return self._timeline.opens(period)

    def resolve_at(self, period: int) -> datetime | None:
        """When period n is resolved: deadline + grace (the close itself when closed early), never
        before the period before it is resolved."""
        _check_period(period)
        return self._timeline.resolve_at(period)

    def early_closed(self, period: int) -> bool:
        _check_period(period)
        fixed = self._timeline.fixed.get(period)
        return fixed is not None and fixed.early

    def period_of_post(self, post_date: datetime) -> int:
        """The period a post stamped `post_date` belongs to: the first n with post_date ≤ deadline(n).
        0 for a post before the game started (the machinery decides whether that counts for period 1)."""
        return self._timeline.period_at(require_aware(post_date))

    def pause_at(self, moment: datetime) -> Pause | None:
        """The pause the clock is in at `moment` (an open one has end None), or None."""
        moment = require_aware(moment)
        for pause in self._timeline.pauses:
            if pause.start <= moment and (pause.end is None or moment < pause.end):
                return pause
        return None

    def reminders(self, period: int) -> tuple[Reminder, ...]:
        """Every reminder of period n, in time order (none while its deadline is unknown)."""
        deadline, opens = self.deadline(period), self.opens(period)
        if deadline is None or opens is None:
            return ()
        due: list[Reminder] = []
        for before in self.schedule.reminders:
            at = deadline - before
            if at <= opens:
                continue
            pause = self.pause_at(at)
            if pause is not None and pause.end is not None:
                at = pause.end
            if at < deadline:
                due.append(Reminder(period, at, before, deadline))
        return tuple(sorted(due, key=lambda reminder: (reminder.at, -reminder.before)))

    def due_reminders(self, period: int, last_sent: datetime | None, now: datetime) -> tuple[Reminder, ...]:
        """The reminders of period n due at `now` and later than `last_sent` (the `at` of the last one
        sent, or when it was sent), while the deadline is still ahead. After a downtime several may be
        due at once: post one, saying the time left (deadline − now), and remember the last `at`."""
        now = require_aware(now)
        last = None if last_sent is None else require_aware(last_sent)
        deadline = self.deadline(period)
        if deadline is None or now >= deadline:
            return ()
        return tuple(
            reminder
            for reminder in self.reminders(period)
            if reminder.at <= now and (last is None or reminder.at > last)
        )

    def periods_due(self, resolved_up_to: int, now: datetime) -> tuple[int, ...]:
        """Every period after `resolved_up_to` whose resolve_at ≤ now, in order (catch-up after downtime)."""
        now = require_aware(now)
        due: list[int] = []
        number = max(resolved_up_to, 0) + 1
        while (resolve := self._timeline.resolve_at(number)) is not None and resolve <= now:
            due.append(number)
            number += 1
        return tuple(due)

    def next_event(self, resolved_up_to: int, now: datetime) -> datetime | None:
        """When to look again: the resolve time of the first unresolved period (≤ now when one is due
        already) or the next reminder after `now`, whichever is first; None when nothing is ahead."""
        now = require_aware(now)
        candidates: list[datetime] = []
        resolve = self._timeline.resolve_at(max(resolved_up_to, 0) + 1)
        if resolve is not None:
            candidates.append(resolve)
        current = max(self.period_of_post(now), 1)
        for period in (current, current + 1):
            candidates.extend(reminder.at for reminder in self.reminders(period) if reminder.at > now)
        return min(candidates, default=None)

    def with_adjustments(self, *adjustments: Adjustment, resolved_up_to: int = 0) -> PeriodClock:
        """This clock with more adjustments, refused (ScheduleError) if a period up to `resolved_up_to`
        — already resolved — would close or resolve at another time."""
        clock = PeriodClock(self.schedule, self.start, (*self.adjustments, *adjustments))
        for period in range(1, resolved_up_to + 1):
            if (clock.deadline(period), clock.resolve_at(period)) != (
                self.deadline(period),
                self.resolve_at(period),
            ):
                raise ScheduleError(f"第{period}期はもう更新済みなので、締切は変えられません")
        return clock

    def extension(
        self, period: int, target: timedelta | datetime | time, *, now: datetime | None = None
    ) -> Extension:
        """The Extension a GM means: by a duration (after the current deadline), to a moment, or to a
        bare clock time (the next such JST time after the current deadline). With `now`, the new
        deadline must still be ahead."""
        current = self.deadline(period)
        if isinstance(target, timedelta):
            if target <= timedelta():
                raise ScheduleError("延長する時間は 0 より長くしてください")
            if current is None:
                raise ScheduleError(f"第{period}期は一時停止中で締切がないので、時間では延長できません")
            new_deadline = current + target
        elif isinstance(target, datetime):
            new_deadline = (
                target.replace(tzinfo=JST) if target.utcoffset() is None else target.astimezone(JST)
            )
        elif isinstance(target, time):
            if current is None:
                raise ScheduleError(f"第{period}期は一時停止中で締切がないので、時刻では延長できません")
            new_deadline = datetime.combine(current.astimezone(JST).date(), target.replace(tzinfo=None), JST)
            while new_deadline <= current:
                new_deadline += timedelta(days=1)
        else:
            raise TypeError(f"an extension target is a timedelta, datetime or time, got {target!r}")
        if now is not None and new_deadline <= require_aware(now):
            raise ScheduleError(f"新しい締切（{format_moment(new_deadline, year=True)}）がもう過ぎています")
        extension = Extension(period, new_deadline)
        self.with_adjustments(extension)
        return extension
