"""Period schedules for play-by-post games: the public entry point of the pure time arithmetic.

Given a schedule (from the game's `[game.schedule]` TOML table), the game's start and the GM's
adjustments, this says when each period closes, when it is resolved, which period a post belongs to,
which reminders are due and which periods are due for resolution — never reading the clock: every
function takes the times it needs. The parts live in `words` (durations, times, weekdays,
formatting), `grid` (schedules and their boundaries) and `period_clock` (numbered periods
and adjustments); this module gathers what the period machinery uses.
"""

from engine.clock.grid import (
    DEFAULT_GRACE,
    CronRule,
    DailyTimes,
    Interval,
    Rule,
    Schedule,
    describe,
    parse_schedule,
)
from engine.clock.period_clock import (
    MAX_PERIODS,
    Adjustment,
    EarlyClose,
    Extension,
    Pause,
    PeriodClock,
    Reminder,
    Resume,
)
from engine.clock.words import (
    JST,
    ScheduleError,
    format_duration,
    format_moment,
    parse_clock_time,
    parse_duration,
    parse_moment,
    parse_weekday,
)

__all__ = [
    "DEFAULT_GRACE",
    "JST",
    "MAX_PERIODS",
    "Adjustment",
    "CronRule",
    "DailyTimes",
    "EarlyClose",
    "Extension",
    "Interval",
    "Pause",
    "PeriodClock",
    "Reminder",
    "Resume",
    "Rule",
    "Schedule",
    "ScheduleError",
    "describe",
    "format_duration",
    "format_moment",
    "parse_clock_time",
    "parse_duration",
    "parse_moment",
    "parse_schedule",
    "parse_weekday",
]
