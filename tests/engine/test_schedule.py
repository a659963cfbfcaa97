"""Period schedules: reading the TOML table, boundaries, numbered periods and GM adjustments.

Every time is a fixed JST datetime; nothing here reads the clock or sleeps.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from engine import schedule_clock
from engine.schedule import (
    JST,
    CronRule,
    DailyTimes,
    EarlyClose,
    Extension,
    Interval,
    Pause,
    PeriodClock,
    Reminder,
    Resume,
    ScheduleError,
    describe,
    format_duration,
    format_moment,
    parse_clock_time,
    parse_duration,
    parse_moment,
    parse_schedule,
    parse_weekday,
)


def jst(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=JST)


M = timedelta(minutes=1)
H = timedelta(hours=1)
SECOND = timedelta(seconds=1)

# 2026-11-29 is a Sunday.
DAILY = {"times": ["12:00", "21:00"], "reminders": ["30m", "5m"]}
START = jst(2026, 11, 29, 10, 0)


def daily_clock(*adjustments, **options) -> PeriodClock:
    return PeriodClock(parse_schedule({**DAILY, **options}), START, adjustments)


def errors_of(table: dict) -> tuple[str, ...]:
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(table)
    return caught.value.errors


# --- durations, times, moments, weekdays -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30m", 30 * M),
        ("2h", 2 * H),
        ("1h30m", 90 * M),
        ("1d", timedelta(days=1)),
        ("90s", timedelta(seconds=90)),
        ("30分", 30 * M),
        ("2時間", 2 * H),
        ("1時間30分", 90 * M),
        ("1日", timedelta(days=1)),
        ("１時間３０分", 90 * M),
        ("1時間半", 90 * M),
        ("90min", 90 * M),
        ("1d12h", timedelta(days=1, hours=12)),
        (" 2 H ", 2 * H),
        ("0m", timedelta()),
        ("1.5h", 90 * M),  # the GM's 延長 reads decimals too: one reader for both
    ],
)
def test_parse_duration(text, expected):
    assert parse_duration(text) == expected


@pytest.mark.parametrize(
    "text", ["", "30", "m", "30x", "30m1h", "1h1h", "-5m", "三十分", "99999999999999999999d"]
)
def test_parse_duration_rejects(text):
    with pytest.raises(ScheduleError) as caught:
        parse_duration(text)
    assert f"期間「{text}」が読めません" in str(caught.value)
    assert "1時間30分" in str(caught.value)


def test_parse_duration_rejects_non_text_and_huge():
    with pytest.raises(ScheduleError, match="文字列で書いてください"):
        parse_duration(30)
    with pytest.raises(ScheduleError, match="長すぎます"):
        parse_duration("1000d1h")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("21:00", time(21)),
        ("9:30", time(9, 30)),
        ("２１：００", time(21)),
        ("21時", time(21)),
        ("21時30分", time(21, 30)),
        ("21時半", time(21, 30)),
        ("0:00", time(0)),
    ],
)
def test_parse_clock_time(text, expected):
    assert parse_clock_time(text) == expected


@pytest.mark.parametrize("text", ["24:00", "21:60", "21", "noon", "21:0", ""])
def test_parse_clock_time_rejects(text):
    with pytest.raises(ScheduleError, match="時刻「"):
        parse_clock_time(text)


def test_parse_moment_forms():
    expected = jst(2026, 11, 29, 21, 0)
    assert parse_moment("2026-11-29 21:00") == expected
    assert parse_moment("2026/11/29 21:00") == expected
    assert parse_moment("２０２６／１１／２９　２１：００") == expected
    assert parse_moment("2026-11-29T21:00:00") == expected
    assert parse_moment("2026-11-29T12:00Z") == expected
    assert parse_moment("2026-11-29T13:00:00+01:00") == expected
    # TOML gives datetimes and dates: a naive one is JST, an aware one is converted.
    assert parse_moment(datetime(2026, 11, 29, 21, 0)) == expected
    assert parse_moment(datetime(2026, 11, 29, 12, 0, tzinfo=UTC)) == expected
    assert parse_moment(datetime(2026, 11, 29, 12, 0, tzinfo=UTC)).utcoffset() == 9 * H
    assert parse_moment(date(2026, 11, 29)) == jst(2026, 11, 29)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2026/2/30 10:00", "存在しない日付"),
        ("tomorrow", "が読めません"),
        ("2026-11-29 25:00", "存在しない"),
        (20261129, "文字列で書いてください"),
    ],
)
def test_parse_moment_rejects(value, message):
    with pytest.raises(ScheduleError, match=message):
        parse_moment(value)


def test_parse_weekday():
    assert [parse_weekday(word) for word in ("月", "土", "土曜", "土曜日", "sat", "Saturday", "ＳＵＮ")] == [
        0,
        5,
        5,
        5,
        5,
        5,
        6,
    ]
    with pytest.raises(ScheduleError, match="曜日「x」が読めません"):
        parse_weekday("x")


def test_formatting():
    assert format_duration(timedelta(days=1, hours=6)) == "1日6時間"
    assert format_duration(90 * M) == "1時間30分"
    assert format_duration(timedelta(seconds=90)) == "1分30秒"
    assert format_duration(timedelta()) == "0分"
    assert format_moment(jst(2026, 11, 29, 21, 0)) == "11/29(日) 21:00"
    assert format_moment(datetime(2026, 11, 29, 15, 30, tzinfo=UTC), year=True) == "2026/11/30(月) 00:30"


# --- daily times ---------------------------------------------------------------------------------------


def test_daily_times_boundaries_strictly_after():
    schedule = parse_schedule({"times": ["21:00", "12:00"]})
    assert schedule.rule == DailyTimes((time(12), time(21)))
    assert schedule.next_boundary(jst(2026, 11, 29, 20, 59)) == jst(2026, 11, 29, 21)
    assert schedule.next_boundary(jst(2026, 11, 29, 21)) == jst(2026, 11, 30, 12)
    assert schedule.next_boundary(jst(2026, 11, 29, 20, 59, 59) + timedelta(microseconds=999_999)) == jst(
        2026, 11, 29, 21
    )
    assert schedule.next_boundary(jst(2026, 11, 29, 23, 59)) == jst(2026, 11, 30, 12)


def test_daily_times_across_month_year_and_leap_day():
    schedule = parse_schedule({"times": ["12:00", "21:00"]})
    assert schedule.next_boundary(jst(2026, 11, 30, 22)) == jst(2026, 12, 1, 12)
    assert schedule.next_boundary(jst(2026, 12, 31, 21, 30)) == jst(2027, 1, 1, 12)
    assert schedule.next_boundary(jst(2028, 2, 28, 22)) == jst(2028, 2, 29, 12)
    assert schedule.previous_boundary(jst(2027, 1, 1, 11)) == jst(2026, 12, 31, 21)
    assert schedule.previous_boundary(jst(2026, 12, 1, 0, 0)) == jst(2026, 11, 30, 21)


def test_previous_boundary_is_at_or_before():
    schedule = parse_schedule({"times": ["12:00", "21:00"]})
    assert schedule.previous_boundary(jst(2026, 11, 29, 21)) == jst(2026, 11, 29, 21)
    assert schedule.previous_boundary(jst(2026, 11, 29, 20, 59, 59)) == jst(2026, 11, 29, 12)


def test_times_with_different_minutes():
    schedule = parse_schedule({"times": ["9:30", "21:00", "21:45"]})
    moment = jst(2026, 11, 29, 0, 0)
    seen = []
    for _ in range(4):
        moment = schedule.next_boundary(moment)
        seen.append(moment)
    assert seen == [
        jst(2026, 11, 29, 9, 30),
        jst(2026, 11, 29, 21),
        jst(2026, 11, 29, 21, 45),
        jst(2026, 11, 30, 9, 30),
    ]


def test_boundaries_of_other_zones_come_back_in_jst():
    schedule = parse_schedule({"times": ["21:00"]})
    boundary = schedule.next_boundary(datetime(2026, 11, 29, 11, 0, tzinfo=UTC))  # 20:00 JST
    assert boundary == jst(2026, 11, 29, 21)
    assert boundary.utcoffset() == 9 * H
    with pytest.raises(ValueError, match="aware"):
        schedule.next_boundary(datetime(2026, 11, 29, 11, 0))


def test_weekday_filter():
    schedule = parse_schedule({"times": ["21:00"], "days": ["土", "日"]})
    assert schedule.rule == DailyTimes((time(21),), (5, 6))
    assert schedule.next_boundary(jst(2026, 12, 2, 12)) == jst(2026, 12, 5, 21)  # Wednesday → Saturday
    assert schedule.next_boundary(jst(2026, 12, 5, 21)) == jst(2026, 12, 6, 21)
    assert schedule.next_boundary(jst(2026, 12, 6, 21)) == jst(2026, 12, 12, 21)  # Sunday → next Saturday
    assert schedule.previous_boundary(jst(2026, 12, 11, 23)) == jst(2026, 12, 6, 21)
    english = parse_schedule({"times": ["21:00"], "days": ["sat", "Sunday"]})
    assert english.rule == schedule.rule
    assert parse_schedule({"times": ["21:00"], "days": "土日"}).rule == schedule.rule


# --- cron ------------------------------------------------------------------------------------------------


def test_cron_daily():
    schedule = parse_schedule({"cron": "0 21 * * *"})
    assert schedule.rule == CronRule("0 21 * * *")
    assert schedule.next_boundary(jst(2026, 12, 31, 21)) == jst(2027, 1, 1, 21)


@pytest.mark.parametrize("weekday", ["0", "7", "sun", "SUN"])
def test_cron_sunday_is_zero_and_seven(weekday):
    # APScheduler 3's own crontab reader would take 0 as Monday.
    schedule = parse_schedule({"cron": f"0 21 * * {weekday}"})
    boundary = schedule.next_boundary(jst(2026, 11, 26, 12))  # Thursday
    assert boundary == jst(2026, 11, 29, 21)
    assert boundary.weekday() == 6


def test_cron_weekday_ranges_and_steps():
    weekdays = parse_schedule({"cron": "0 21 * * 1-5"})
    assert weekdays.next_boundary(jst(2026, 12, 4, 21)) == jst(2026, 12, 7, 21)  # Friday → Monday
    weekend = parse_schedule({"cron": "0 12 * * sat-sun"})
    assert weekend.next_boundary(jst(2026, 12, 5, 12)) == jst(2026, 12, 6, 12)
    assert weekend.next_boundary(jst(2026, 12, 6, 12)) == jst(2026, 12, 12, 12)
    every_other = parse_schedule({"cron": "0 0 * * */2"})  # Sunday, Tuesday, Thursday, Saturday
    moment, seen = jst(2026, 11, 28, 12), []
    for _ in range(5):
        moment = every_other.next_boundary(moment)
        seen.append(moment.weekday())
    assert seen == [6, 1, 3, 5, 6]


def test_cron_day_of_month_or_weekday():
    # crontab(5): both day fields restricted → either matching fires (the 13th, and every Friday).
    schedule = parse_schedule({"cron": "0 21 13 * 5"})
    moment, seen = jst(2026, 1, 1), []
    for _ in range(4):
        moment = schedule.next_boundary(moment)
        seen.append(moment)
    assert seen == [jst(2026, 1, 2, 21), jst(2026, 1, 9, 21), jst(2026, 1, 13, 21), jst(2026, 1, 16, 21)]
    assert schedule.previous_boundary(jst(2026, 1, 15)) == jst(2026, 1, 13, 21)


def test_cron_minutes_macros_and_rare_dates():
    quarter = parse_schedule({"cron": "*/30 9-10 * * *"})
    assert quarter.next_boundary(jst(2026, 11, 29, 10, 30)) == jst(2026, 11, 30, 9, 0)
    assert parse_schedule({"cron": "@daily"}).next_boundary(jst(2026, 11, 29, 1)) == jst(2026, 11, 30)
    leap = parse_schedule({"cron": "0 0 29 2 *"})
    assert leap.next_boundary(jst(2024, 3, 1)) == jst(2028, 2, 29)
    assert leap.previous_boundary(jst(2027, 6, 1)) == jst(2024, 2, 29)


@pytest.mark.parametrize(
    "table",
    [
        {"cron": "*/15 * * * *"},
        {"cron": "0 21 13 * 5"},
        {"times": ["9:30", "21:00"], "days": ["水"]},
        {"interval": "90m", "anchor": "2026-11-29 21:00"},
    ],
)
def test_previous_and_next_bracket_every_moment(table):
    schedule = parse_schedule(table)
    moment = jst(2026, 12, 1, 0, 7, 13)
    for _ in range(40):
        previous = schedule.previous_boundary(moment)
        following = schedule.next_boundary(moment)
        assert previous <= moment < following
        assert schedule.next_boundary(previous) == following
        moment += timedelta(hours=5, minutes=17, seconds=3)


# --- intervals -----------------------------------------------------------------------------------------


def test_interval_with_anchor_in_the_past():
    schedule = parse_schedule({"interval": "6h", "anchor": "2026-11-29 21:00"})
    assert schedule.rule == Interval(6 * H, jst(2026, 11, 29, 21))
    assert schedule.next_boundary(jst(2026, 12, 1, 10)) == jst(2026, 12, 1, 15)
    assert schedule.next_boundary(jst(2026, 12, 1, 15)) == jst(2026, 12, 1, 21)
    assert schedule.previous_boundary(jst(2026, 12, 1, 15)) == jst(2026, 12, 1, 15)
    assert schedule.previous_boundary(jst(2026, 12, 1, 14, 59)) == jst(2026, 12, 1, 9)


def test_interval_with_anchor_in_the_future():
    schedule = parse_schedule({"interval": "90m", "anchor": "2026-11-29 21:00"})
    assert schedule.next_boundary(jst(2026, 11, 1)) == jst(2026, 11, 29, 21)
    assert schedule.next_boundary(jst(2026, 11, 29, 21)) == jst(2026, 11, 29, 22, 30)
    assert schedule.previous_boundary(jst(2026, 11, 29, 20, 59)) is None
    clock = PeriodClock(schedule, jst(2026, 11, 20))
    assert clock.deadline(1) == jst(2026, 11, 29, 21)
    assert clock.deadline(2) == jst(2026, 11, 29, 22, 30)


def test_interval_anchor_as_toml_datetime():
    schedule = parse_schedule({"interval": "1d", "anchor": datetime(2026, 11, 29, 21)})
    assert schedule.next_boundary(jst(2026, 12, 31, 22)) == jst(2027, 1, 1, 21)


# --- the table -----------------------------------------------------------------------------------------


def test_defaults_and_options():
    schedule = parse_schedule({"times": ["21:00"]})
    assert (schedule.grace, schedule.reminders, schedule.early, schedule.min_period) == (
        2 * M,
        (),
        False,
        timedelta(),
    )
    full = parse_schedule(
        {
            "times": ["21:00"],
            "grace": "5分",
            "reminders": ["5m", "1h", "30m", "5分"],
            "early": True,
            "min_period": "10m",
        }
    )
    assert full.grace == 5 * M
    assert full.reminders == (H, 30 * M, 5 * M)
    assert full.early is True
    assert full.min_period == 10 * M
    assert parse_schedule({"times": ["21:00"], "grace": "0m"}).grace == timedelta()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "更新時刻の指定がありません"),
        (
            {"cron": "0 21 * * *", "interval": "6h", "anchor": "2026-11-29 21:00"},
            "cron と interval は同時に使えません",
        ),
        ({"times": ["21:00"], "cron": "0 21 * * *"}, "times と cron は同時に使えません"),
        ({"times": ["21:00"], "remind": ["5m"]}, "不明な項目「remind」です（「reminders」のことですか？）"),
        ({"times": ["21:00"], "foo": 1}, "不明な項目「foo」です（使える項目: times, days, cron"),
        ({"times": ["25:00"]}, "times: 時刻「25:00」は 0:00～23:59 の範囲"),
        ({"times": ["noon"]}, "times: 時刻「noon」が読めません"),
        ({"times": []}, "times が空です"),
        ({"times": 2100}, "times は文字列の配列で書いてください"),
        ({"times": ["21:00"], "days": ["x"]}, "days: 曜日「x」が読めません"),
        ({"times": ["21:00"], "days": []}, "days が空です"),
        ({"cron": "0 21 * * *", "days": ["土"]}, "days は times と一緒に使います"),
        ({"cron": "0 21 * *"}, "「分 時 日 月 曜日」の5項目"),
        ({"cron": "0 25 * * *"}, "時「25」が範囲外か読めません"),
        ({"cron": "61 0 * * *"}, "分「61」が範囲外か読めません"),
        ({"cron": "0 0 0 * *"}, "日「0」が範囲外か読めません"),
        ({"cron": "0 0 * 13 *"}, "月「13」が範囲外か読めません"),
        ({"cron": "0 0 * * 8"}, "曜日「8」が読めません"),
        ({"cron": "0 0 * * fri-mon"}, "曜日「fri-mon」が読めません"),
        ({"cron": "0 0 31 2 *"}, "更新時刻が一度も来ません"),
        ({"cron": 21}, "cron は文字列で書いてください"),
        ({"interval": "6h"}, "interval には最初の更新時刻 anchor が要ります"),
        ({"interval": "6h", "anchor": "someday"}, "anchor: 日時「someday」が読めません"),
        ({"interval": "0m", "anchor": "2026-11-29 21:00"}, "interval は 0 より長くしてください"),
        ({"interval": "six hours", "anchor": "2026-11-29 21:00"}, "interval: 期間「six hours」が読めません"),
        ({"times": ["21:00"], "anchor": "2026-11-29 21:00"}, "anchor は interval と一緒に使います"),
        ({"times": ["21:00"], "grace": "soon"}, "grace: 期間「soon」が読めません"),
        ({"times": ["21:00"], "reminders": ["0m"]}, "reminders: 「0m」は締切の何分前かを 0 より長く"),
        ({"times": ["21:00"], "reminders": ["later"]}, "reminders: 期間「later」が読めません"),
        ({"times": ["21:00"], "reminders": [30]}, "reminders は文字列の配列で書いてください"),
        ({"times": ["21:00"], "early": "yes"}, "early は true か false で書いてください"),
        ({"times": ["21:00"], "min_period": "a while"}, "min_period: 期間「a while」が読めません"),
    ],
)
def test_validation_errors(table, message):
    errors = errors_of(table)
    assert any(message in error for error in errors), errors


def test_every_error_is_reported_at_once():
    with pytest.raises(ScheduleError) as caught:
        parse_schedule({"times": ["25:00"], "grace": "x", "early": 1, "bogus": True})
    assert len(caught.value.errors) == 4
    assert str(caught.value).startswith("スケジュールの設定に誤りがあります：\n- ")


def test_table_must_be_a_table():
    with pytest.raises(ScheduleError, match=r"表（\[game.schedule\]）で書いてください"):
        parse_schedule(["21:00"])


def test_describe():
    assert describe(parse_schedule({"times": ["21:00", "12:00"]})) == "毎日 12:00・21:00（日本時間）"
    assert (
        describe(parse_schedule({"times": ["21:00"], "days": ["日", "土"]})) == "毎週土・日 21:00（日本時間）"
    )
    assert describe(parse_schedule({"interval": "6h", "anchor": "2026-11-29 21:00"})) == (
        "6時間ごと（2026-11-29 21:00 から）"
    )
    assert describe(parse_schedule({"interval": "90m", "anchor": "2026-11-29 21:00"})).startswith(
        "1時間30分ごと"
    )
    assert describe(parse_schedule({"cron": "0 21 * * 1-5"})) == "cron「0 21 * * 1-5」の時刻（日本時間）"
    full = parse_schedule({"times": ["21:00"], "reminders": ["30m", "5m"], "early": True})
    assert describe(full, full=True) == (
        "毎日 21:00（日本時間）、更新処理は締切の2分後、お知らせは締切の30分・5分前、全員の準備完了で即時更新"
    )
    assert describe(parse_schedule({"times": ["21:00"], "grace": "0m"}), full=True) == (
        "毎日 21:00（日本時間）、締切と同時に更新処理"
    )


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
        ([Pause(jst(2026, 11, 29, 15)), Resume(jst(2026, 11, 29, 15))], "より後にしてください"),
    ],
)
def test_pause_errors(adjustments, message):
    with pytest.raises(ScheduleError, match=message):
        daily_clock(*adjustments)


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
    monkeypatch.setattr(schedule_clock, "MAX_PERIODS", 50)
    clock = daily_clock()
    with pytest.raises(ScheduleError, match="期の数が多すぎます"):
        clock.period_of_post(jst(2099, 1, 1))
