"""Period schedules, the numbered periods: deadlines, grace, reminders, catch-up, and the GM's
extensions, pauses and early closes folded over them (engine/clock/period_clock.py).

Every time is a fixed JST datetime; nothing here reads the clock or sleeps.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest

from engine.clock import period_clock
from engine.clock.schedule import (
    JST,
    EarlyClose,
    Extension,
    Pause,
    PeriodClock,
    Reminder,
    Resume,
    ScheduleError,
    parse_clock_time,
    parse_schedule,
)


def jst(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=JST)


M = timedelta(minutes=1)

# 2026-11-29 is a Sunday.
DAILY = {"times": ["12:00", "21:00"], "reminders": ["30m", "5m"]}
START = jst(2026, 11, 29, 10, 0)


def daily_clock(*adjustments, **options) -> PeriodClock:
    return PeriodClock(parse_schedule({**DAILY, **options}), START, adjustments)


# --- periods -------------------------------------------------------------------------------------------


def test_periods_from_the_start():
    clock = daily_clock()
    assert [clock.deadline(n) for n in (1, 2, 3)] == [
        jst(2026, 11, 29, 12),
        jst(2026, 11, 29, 21),
        jst(2026, 11, 30, 12),
    ]
    assert clock.opens(1) == START
    assert clock.opens(2) == jst(2026, 11, 29, 12)
    assert clock.resolve_at(1) == jst(2026, 11, 29, 12, 2)
    with pytest.raises(ScheduleError, match="期の番号は1以上"):
        clock.deadline(0)


def test_start_on_a_boundary_gives_a_full_first_period():
    clock = PeriodClock(parse_schedule(DAILY), jst(2026, 11, 29, 12))
    assert clock.deadline(1) == jst(2026, 11, 29, 21)


def test_period_of_post_at_exact_deadlines():
    clock = daily_clock()
    assert clock.period_of_post(jst(2026, 11, 29, 9, 59)) == 0
    assert clock.period_of_post(START) == 1
    assert clock.period_of_post(jst(2026, 11, 29, 12)) == 1
    assert clock.period_of_post(jst(2026, 11, 29, 12, 0, 1)) == 2
    assert clock.period_of_post(jst(2026, 11, 29, 21)) == 2
    assert clock.period_of_post(jst(2026, 11, 29, 21, 0, 1)) == 3
    assert clock.period_of_post(jst(2026, 12, 31, 22)) == 2 + 2 * 32 + 1
    # Asking in any order gives the same answers (the deadlines are remembered, not re-derived).
    assert clock.period_of_post(jst(2026, 11, 30, 11)) == 3


def test_grace_counts_posts_stamped_before_the_deadline():
    clock = daily_clock()
    # A post stamped 11:59:59 that the bot reads at 12:01 is still period 1, resolved at 12:02.
    assert clock.period_of_post(jst(2026, 11, 29, 11, 59, 59)) == 1
    assert clock.periods_due(0, jst(2026, 11, 29, 12, 1)) == ()
    assert clock.periods_due(0, jst(2026, 11, 29, 12, 1, 59)) == ()
    assert clock.periods_due(0, jst(2026, 11, 29, 12, 2)) == (1,)
    assert clock.periods_due(1, jst(2026, 11, 29, 12, 2)) == ()
    long_grace = daily_clock(grace="1h")
    assert long_grace.resolve_at(2) == jst(2026, 11, 29, 22)


def test_catch_up_after_days_of_downtime():
    clock = daily_clock()
    now = jst(2026, 12, 2, 13)
    assert clock.periods_due(0, now) == (1, 2, 3, 4, 5, 6, 7)
    assert clock.periods_due(4, now) == (5, 6, 7)
    assert clock.resolve_at(7) == jst(2026, 12, 2, 12, 2)
    assert clock.resolve_at(8) == jst(2026, 12, 2, 21, 2)


def test_reminders_due_and_not_repeated():
    clock = daily_clock()  # period 2 closes 2026-11-29 21:00
    assert clock.reminders(2) == (
        Reminder(2, jst(2026, 11, 29, 20, 30), 30 * M, jst(2026, 11, 29, 21)),
        Reminder(2, jst(2026, 11, 29, 20, 55), 5 * M, jst(2026, 11, 29, 21)),
    )
    assert clock.due_reminders(2, None, jst(2026, 11, 29, 20, 29, 59)) == ()
    due = clock.due_reminders(2, None, jst(2026, 11, 29, 20, 30))
    assert [reminder.before for reminder in due] == [30 * M]
    assert clock.due_reminders(2, due[-1].at, jst(2026, 11, 29, 20, 40)) == ()
    later = clock.due_reminders(2, due[-1].at, jst(2026, 11, 29, 20, 55))
    assert [reminder.before for reminder in later] == [5 * M]
    assert clock.due_reminders(2, later[-1].at, jst(2026, 11, 29, 20, 59)) == ()


def test_reminders_after_downtime_and_after_the_deadline():
    clock = daily_clock()
    both = clock.due_reminders(2, None, jst(2026, 11, 29, 20, 56))
    assert [reminder.at for reminder in both] == [jst(2026, 11, 29, 20, 30), jst(2026, 11, 29, 20, 55)]
    # Once the deadline has come, a reminder would be wrong.
    assert clock.due_reminders(2, None, jst(2026, 11, 29, 21)) == ()


def test_reminders_before_the_period_opened_are_dropped():
    clock = PeriodClock(parse_schedule(DAILY), jst(2026, 11, 29, 11, 40))
    assert [reminder.before for reminder in clock.reminders(1)] == [5 * M]


def test_a_reminder_exactly_at_the_opening_is_not_sent():
    # An hourly period with a reminder an hour before its deadline: that moment is the opening
    # itself, when nobody could have sent orders yet. Half an hour before is a real reminder.
    rule = {"interval": "1h", "anchor": "2026-11-29 21:00", "reminders": ["1h", "30m"]}
    clock = PeriodClock(parse_schedule(rule), jst(2026, 11, 29, 20, 0))
    assert [reminder.before for reminder in clock.reminders(2)] == [30 * M]
    assert clock.opens(2) == jst(2026, 11, 29, 21) and clock.deadline(2) == jst(2026, 11, 29, 22)


def test_next_event():
    clock = daily_clock()
    assert clock.next_event(1, jst(2026, 11, 29, 20)) == jst(2026, 11, 29, 20, 30)
    assert clock.next_event(1, jst(2026, 11, 29, 20, 56)) == jst(2026, 11, 29, 21, 2)
    # A period already due: its resolve time, in the past, says "now".
    assert clock.next_event(0, jst(2026, 11, 29, 13)) == jst(2026, 11, 29, 12, 2)
    assert daily_clock(Pause(jst(2026, 11, 29, 15))).next_event(1, jst(2026, 11, 29, 16)) is None


# --- extensions ----------------------------------------------------------------------------------------


def test_extension_by_a_duration():
    clock = daily_clock()
    extension = clock.extension(2, 30 * M)
    assert extension == Extension(2, jst(2026, 11, 29, 21, 30))
    longer = clock.with_adjustments(extension, resolved_up_to=1)
    assert longer.deadline(2) == jst(2026, 11, 29, 21, 30)
    assert longer.resolve_at(2) == jst(2026, 11, 29, 21, 32)
    assert longer.opens(3) == jst(2026, 11, 29, 21, 30)
    assert longer.deadline(3) == jst(2026, 11, 30, 12)
    assert longer.period_of_post(jst(2026, 11, 29, 21, 15)) == 2
    # The reminders move with the deadline, so the 30-minute one is due again.
    assert [r.at for r in longer.due_reminders(2, jst(2026, 11, 29, 20, 55), jst(2026, 11, 29, 21))] == [
        jst(2026, 11, 29, 21)
    ]


def test_extension_to_an_absolute_moment_swallows_boundaries():
    clock = daily_clock()
    longer = clock.with_adjustments(clock.extension(2, jst(2026, 11, 30, 18)))
    assert longer.deadline(2) == jst(2026, 11, 30, 18)
    assert longer.deadline(3) == jst(2026, 11, 30, 21)
    naive = clock.extension(2, datetime(2026, 11, 30, 18))
    assert naive.new_deadline == jst(2026, 11, 30, 18)


def test_extension_to_a_bare_time():
    clock = daily_clock()
    assert clock.extension(2, time(22)) == Extension(2, jst(2026, 11, 29, 22))
    # "20:00" after a 21:00 deadline is tomorrow's 20:00.
    assert clock.extension(2, time(20)) == Extension(2, jst(2026, 11, 30, 20))
    assert clock.extension(2, time(21)) == Extension(2, jst(2026, 11, 30, 21))
    assert clock.extension(2, parse_clock_time("22時")).new_deadline == jst(2026, 11, 29, 22)


def test_extension_of_a_later_period_and_shortening():
    clock = daily_clock(Extension(4, jst(2026, 12, 1, 0)), Extension(2, jst(2026, 11, 29, 18)))
    assert clock.deadline(2) == jst(2026, 11, 29, 18)
    assert clock.deadline(3) == jst(2026, 11, 29, 21)
    assert clock.deadline(4) == jst(2026, 12, 1, 0)
    assert clock.deadline(5) == jst(2026, 12, 1, 12)


def test_extension_errors():
    clock = daily_clock()
    with pytest.raises(ScheduleError, match="延長する時間は 0 より長く"):
        clock.extension(2, timedelta())
    with pytest.raises(ScheduleError, match="第2期の締切（2026/11/29\\(日\\) 11:00）がその期の始まり"):
        clock.extension(2, jst(2026, 11, 29, 11))
    with pytest.raises(ScheduleError, match="もう過ぎています"):
        clock.extension(2, time(20), now=jst(2026, 11, 30, 20, 30))
    with pytest.raises(ScheduleError, match="期の番号は1以上"):
        clock.extension(0, 30 * M)
    with pytest.raises(ScheduleError, match=r"第3期の締切.*始まり"):
        daily_clock(Extension(3, jst(2026, 11, 30, 6)), Extension(2, jst(2026, 11, 30, 7)))


def test_resolved_periods_cannot_change():
    clock = daily_clock()
    with pytest.raises(ScheduleError, match="第1期はもう更新済み"):
        clock.with_adjustments(Extension(1, jst(2026, 11, 29, 13)), resolved_up_to=1)
    assert clock.with_adjustments(Extension(2, jst(2026, 11, 29, 22)), resolved_up_to=1).deadline(2) == jst(
        2026, 11, 29, 22
    )


# --- pauses --------------------------------------------------------------------------------------------


def test_closed_pause_pushes_the_interrupted_deadline_and_the_schedule_stays():
    clock = daily_clock(Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 17)))
    assert clock.deadline(1) == jst(2026, 11, 29, 12)
    assert clock.deadline(2) == jst(2026, 11, 29, 23)
    # The times the players were told come back at once.
    assert clock.deadline(3) == jst(2026, 11, 30, 12)
    assert clock.deadline(4) == jst(2026, 11, 30, 21)
    assert clock.resolve_at(2) == jst(2026, 11, 29, 23, 2)
    assert clock.pause_at(jst(2026, 11, 29, 16)) == Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 17))
    assert clock.pause_at(jst(2026, 11, 29, 17)) is None


def test_pause_of_whole_days_keeps_the_clock_times():
    clock = daily_clock(Pause(jst(2026, 11, 29, 15), jst(2026, 12, 1, 15)))
    assert clock.deadline(2) == jst(2026, 12, 1, 21)
    assert clock.deadline(3) == jst(2026, 12, 2, 12)
    # Nothing came due while paused.
    assert clock.periods_due(1, jst(2026, 12, 1, 20)) == ()


def test_the_period_after_a_pushed_deadline_is_never_shorter_than_min_period():
    # 21:00 pushed to 11:30 the next morning; 12:00 is too near, so period 3 runs to 21:00.
    clock = daily_clock(Pause(jst(2026, 11, 29, 20), jst(2026, 11, 30, 10, 30)), min_period="1h")
    assert clock.deadline(2) == jst(2026, 11, 30, 11, 30)
    assert clock.deadline(3) == jst(2026, 11, 30, 21)
    assert daily_clock(Pause(jst(2026, 11, 29, 20), jst(2026, 11, 30, 10, 30))).deadline(3) == jst(
        2026, 11, 30, 12
    )


def test_a_pause_on_an_interval_schedule_keeps_the_anchor():
    clock = PeriodClock(
        parse_schedule({"interval": "6h", "anchor": "2026-11-29 12:00"}),
        START,
        [Pause(jst(2026, 11, 29, 13), jst(2026, 11, 29, 15))],
    )
    assert [clock.deadline(n) for n in (1, 2, 3)] == [
        jst(2026, 11, 29, 12),
        jst(2026, 11, 29, 20),
        jst(2026, 11, 30, 0),
    ]


def test_boundary_at_the_pause_start_has_come():
    clock = daily_clock(Pause(jst(2026, 11, 29, 21), jst(2026, 11, 29, 22)))
    assert clock.deadline(2) == jst(2026, 11, 29, 21)
    assert clock.deadline(3) == jst(2026, 11, 30, 13)


def test_two_pauses_add_up():
    clock = daily_clock(
        Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 16)),
        Pause(jst(2026, 11, 29, 18), jst(2026, 11, 29, 20)),
    )
    assert clock.deadline(2) == jst(2026, 11, 30, 0)
    assert clock.deadline(3) == jst(2026, 11, 30, 12)


def test_open_pause_and_resume():
    paused = daily_clock(Pause(jst(2026, 11, 29, 15)))
    assert paused.deadline(2) is None
    assert paused.resolve_at(2) is None
    assert paused.deadline(3) is None
    assert paused.period_of_post(jst(2026, 12, 20)) == 2
    assert paused.periods_due(1, jst(2026, 12, 20)) == ()
    assert paused.reminders(2) == ()
    assert paused.due_reminders(2, None, jst(2026, 12, 20)) == ()
    assert paused.pause_at(jst(2026, 12, 20)) == Pause(jst(2026, 11, 29, 15))
    with pytest.raises(ScheduleError, match="一時停止中で締切がないので、時間では延長できません"):
        paused.extension(2, 30 * M)
    resumed = paused.with_adjustments(Resume(jst(2026, 11, 29, 17)), resolved_up_to=1)
    closed = daily_clock(Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 17)))
    assert [resumed.deadline(n) for n in range(1, 6)] == [closed.deadline(n) for n in range(1, 6)]


def test_pause_moves_deadlines_set_before_it_but_not_after():
    before = daily_clock(
        Extension(2, jst(2026, 11, 29, 22)), Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 16))
    )
    assert before.deadline(2) == jst(2026, 11, 29, 23)
    after = daily_clock(
        Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 16)), Extension(2, jst(2026, 11, 29, 22))
    )
    assert after.deadline(2) == jst(2026, 11, 29, 22)
    assert after.deadline(3) == jst(2026, 11, 30, 12)
    # A deadline the GM sets while paused stands; the period after it waits for the resume.
    during = daily_clock(Pause(jst(2026, 11, 29, 15)), Extension(2, jst(2026, 11, 29, 22)))
    assert during.deadline(2) == jst(2026, 11, 29, 22)
    assert during.deadline(3) is None
    with pytest.raises(ScheduleError, match="第2期が一時停止中で締切がないので、第3期は始まっていません"):
        daily_clock(Pause(jst(2026, 11, 29, 15)), Extension(3, jst(2026, 11, 30, 22)))


def test_reminder_inside_a_pause_is_due_when_it_ends():
    clock = daily_clock(Pause(jst(2026, 11, 29, 20, 40), jst(2026, 11, 29, 21)))
    assert clock.deadline(2) == jst(2026, 11, 29, 21, 20)
    assert [(r.before, r.at) for r in clock.reminders(2)] == [
        (30 * M, jst(2026, 11, 29, 21)),
        (5 * M, jst(2026, 11, 29, 21, 15)),
    ]
    assert clock.due_reminders(2, None, jst(2026, 11, 29, 20, 50)) == ()


@pytest.mark.parametrize(
    ("adjustments", "message"),
    [
        (
            [Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 14))],
            "再開（2026/11/29\\(日\\) 14:00）は一時停止（2026/11/29\\(日\\) 15:00）より後にしてください",
        ),
        ([Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 15))], "より後にしてください"),
        (
            [
                Pause(jst(2026, 11, 29, 15), jst(2026, 11, 29, 17)),
                Pause(jst(2026, 11, 29, 16), jst(2026, 11, 29, 18)),
            ],
            "前の一時停止（2026/11/29\\(日\\) 17:00まで）と重なっています",
        ),
        (
            [Pause(jst(2026, 11, 29, 15)), Pause(jst(2026, 11, 29, 16))],
            "一時停止中にさらに一時停止はできません",
        ),
        ([Resume(jst(2026, 11, 29, 16))], "一時停止していないので再開できません"),
        (
            [Pause(jst(2026, 11, 29, 15)), Resume(jst(2026, 11, 29, 16)), Resume(jst(2026, 11, 29, 17))],
            "一時停止していないので再開できません",
        ),
    ],
)
def test_pause_errors(adjustments, message):
    with pytest.raises(ScheduleError, match=message):
        daily_clock(*adjustments)


def test_a_resume_at_the_pauses_own_moment_leaves_no_pause():
    # 停止 and 再開 read in one poll carry the same moment: the GM changed their mind, the clock runs on
    moment = jst(2026, 11, 29, 15)
    clock = daily_clock(Pause(moment), Resume(moment))
    assert clock.deadline(1) == daily_clock().deadline(1)
    assert clock.deadline(2) == daily_clock().deadline(2)
    later = clock.with_adjustments(Pause(jst(2026, 11, 29, 16), jst(2026, 11, 29, 17)))
    assert later.deadline(1) == daily_clock(Pause(jst(2026, 11, 29, 16), jst(2026, 11, 29, 17))).deadline(1)


def test_naive_adjustment_times_are_a_programming_error():
    with pytest.raises(ValueError, match="aware"):
        daily_clock(Pause(datetime(2026, 11, 29, 15)))
    with pytest.raises(ValueError, match="aware"):
        PeriodClock(parse_schedule(DAILY), datetime(2026, 11, 29))


# --- early closes --------------------------------------------------------------------------------------


def test_early_close_ends_the_period_at_that_moment():
    clock = daily_clock(EarlyClose(2, jst(2026, 11, 29, 18)))
    assert clock.deadline(2) == jst(2026, 11, 29, 18)
    assert clock.resolve_at(2) == jst(2026, 11, 29, 18)
    assert clock.early_closed(2) and not clock.early_closed(3)
    assert clock.opens(3) == jst(2026, 11, 29, 18)
    assert clock.deadline(3) == jst(2026, 11, 29, 21)
    assert clock.deadline(4) == jst(2026, 11, 30, 12)
    assert clock.period_of_post(jst(2026, 11, 29, 18)) == 2
    assert clock.period_of_post(jst(2026, 11, 29, 18, 0, 1)) == 3
    assert clock.periods_due(1, jst(2026, 11, 29, 18)) == (2,)


def test_min_period_skips_a_boundary_too_close_after_an_early_close():
    close = EarlyClose(2, jst(2026, 11, 29, 20, 55))
    assert daily_clock(close).deadline(3) == jst(2026, 11, 29, 21)
    guarded = daily_clock(close, min_period="10m")
    assert guarded.deadline(3) == jst(2026, 11, 30, 12)
    assert daily_clock(EarlyClose(2, jst(2026, 11, 29, 20, 50)), min_period="10m").deadline(3) == jst(
        2026, 11, 29, 21
    )


def test_min_period_applies_to_the_start_but_never_to_regular_periods():
    schedule = parse_schedule({"times": ["12:00", "21:00"], "min_period": "10m"})
    assert PeriodClock(schedule, jst(2026, 11, 29, 11, 55)).deadline(1) == jst(2026, 11, 29, 21)
    hourly = parse_schedule({"interval": "1h", "anchor": "2026-11-29 00:00", "min_period": "2h"})
    clock = PeriodClock(hourly, jst(2026, 11, 29, 9, 30))
    assert [clock.deadline(n) for n in (1, 2, 3)] == [
        jst(2026, 11, 29, 12),
        jst(2026, 11, 29, 13),
        jst(2026, 11, 29, 14),
    ]


def test_early_close_is_resolved_after_the_period_before_it():
    clock = daily_clock(EarlyClose(2, jst(2026, 11, 29, 12, 1)))
    assert clock.resolve_at(1) == jst(2026, 11, 29, 12, 2)
    assert clock.resolve_at(2) == jst(2026, 11, 29, 12, 2)
    assert clock.periods_due(0, jst(2026, 11, 29, 12, 1, 30)) == ()
    assert clock.periods_due(0, jst(2026, 11, 29, 12, 2)) == (1, 2)


def test_early_close_errors():
    with pytest.raises(
        ScheduleError, match="第2期の締切（2026/11/29\\(日\\) 21:00）より後に即時更新はできません"
    ):
        daily_clock(EarlyClose(2, jst(2026, 11, 29, 21, 1)))
    with pytest.raises(ScheduleError, match=r"第2期の即時更新.*その期の始まり.*より前"):
        daily_clock(EarlyClose(2, jst(2026, 11, 29, 11)))
    with pytest.raises(ScheduleError, match="期の番号は1以上"):
        daily_clock(EarlyClose(0, jst(2026, 11, 29, 11)))


def test_a_later_pause_does_not_move_an_early_close():
    # The close happened, so the period the pause interrupted has nothing left to push.
    clock = daily_clock(
        EarlyClose(2, jst(2026, 11, 29, 18)), Pause(jst(2026, 11, 29, 17), jst(2026, 11, 29, 19))
    )
    assert clock.deadline(2) == jst(2026, 11, 29, 18)
    assert clock.deadline(3) == jst(2026, 11, 29, 21)


def test_early_close_inside_a_pause_replaces_the_pushed_deadline():
    # 21:00 was pushed to 00:00 by the pause; the GM closed at 21:30 instead, and the period after it
    # runs to the next time on the schedule.
    clock = daily_clock(
        Pause(jst(2026, 11, 29, 20), jst(2026, 11, 29, 23)), EarlyClose(2, jst(2026, 11, 29, 21, 30))
    )
    assert clock.deadline(2) == jst(2026, 11, 29, 21, 30)
    assert clock.deadline(3) == jst(2026, 11, 30, 12)
    assert clock.deadline(4) == jst(2026, 11, 30, 21)


def test_early_close_during_an_open_pause():
    clock = daily_clock(Pause(jst(2026, 11, 29, 15)), EarlyClose(2, jst(2026, 11, 29, 16)))
    assert clock.deadline(2) == jst(2026, 11, 29, 16)
    assert clock.deadline(3) is None
    assert clock.periods_due(1, jst(2026, 11, 29, 16)) == (2,)


def test_rebuilding_from_stored_adjustments_gives_the_same_clock():
    adjustments = [
        EarlyClose(2, jst(2026, 11, 29, 18)),
        Pause(jst(2026, 11, 29, 19)),
        Resume(jst(2026, 11, 29, 19, 30)),
        Extension(4, jst(2026, 11, 30, 22)),
    ]
    clock = daily_clock()
    for adjustment in adjustments:
        clock = clock.with_adjustments(adjustment)
    rebuilt = daily_clock(*adjustments)
    assert (
        [rebuilt.deadline(n) for n in range(1, 7)]
        == [clock.deadline(n) for n in range(1, 7)]
        == [
            jst(2026, 11, 29, 12),
            jst(2026, 11, 29, 18),
            jst(2026, 11, 29, 21, 30),
            jst(2026, 11, 30, 22),
            jst(2026, 12, 1, 12),
            jst(2026, 12, 1, 21),
        ]
    )


def test_far_future_posts_hit_the_period_bound(monkeypatch):
    monkeypatch.setattr(period_clock, "MAX_PERIODS", 50)
    clock = daily_clock()
    with pytest.raises(ScheduleError, match="期の数が多すぎます"):
        clock.period_of_post(jst(2099, 1, 1))
