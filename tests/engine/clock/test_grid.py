"""Period schedules, the regular boundaries: daily times, cron rules and intervals, and reading and
describing the TOML table (engine/clock/grid.py).

Every time is a fixed JST datetime; nothing here reads the clock or sleeps.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from engine.clock.schedule import (
    JST,
    CronRule,
    DailyTimes,
    Interval,
    PeriodClock,
    ScheduleError,
    describe,
    parse_schedule,
)


def jst(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=JST)


M = timedelta(minutes=1)
H = timedelta(hours=1)


def errors_of(table: dict) -> tuple[str, ...]:
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(table)
    return caught.value.errors


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
