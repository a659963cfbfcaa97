"""Period schedules, the words they are written in: durations, clock times, moments, weekdays and
their formatting (engine/clock/words.py).

Every time is a fixed JST datetime; nothing here reads the clock or sleeps.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from engine.clock.schedule import (
    JST,
    ScheduleError,
    format_duration,
    format_moment,
    parse_clock_time,
    parse_duration,
    parse_moment,
    parse_weekday,
)


def jst(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=JST)


M = timedelta(minutes=1)
H = timedelta(hours=1)


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
