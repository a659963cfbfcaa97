"""Durations and JST clock times of the GM's 延長 command (parser/gm_time.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from parser.gm_time import (
    JST,
    MAX_EXTENSION,
    ClockTime,
    TimeProblem,
    duration_ascii,
    duration_ja,
    parse_clock_time,
    parse_duration,
    read_clock_time,
    read_duration,
)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("30分", 30),
        ("30分間", 30),
        ("2時間", 120),
        ("1時間30分", 90),
        ("1時間 30分", 90),
        ("1時間半", 90),
        ("1日", 1440),
        ("1日間", 1440),
        ("1日半", 2160),
        ("1日2時間30分", 1590),
        ("90m", 90),
        ("90min", 90),
        ("90 minutes", 90),
        ("2h", 120),
        ("2H", 120),
        ("2hr", 120),
        ("2 hours", 120),
        ("1h30m", 90),
        ("1h 30m", 90),
        ("1d", 1440),
        ("1d2h", 1560),
        ("1.5h", 90),
        ("1.5時間", 90),
        ("0.5日", 720),
        ("31日", 31 * 1440),
    ],
)
def test_durations(text: str, minutes: int) -> None:
    assert parse_duration(text) == timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("30", "単位"),
        ("0分", "0です"),
        ("0h0m", "0です"),
        ("32日", "31日まで"),
        ("999999日", "31日まで"),
        ("1.33時間", "分単位"),
        ("30分半", "分単位"),
    ],
)
def test_bad_durations_say_why(text: str, reason_part: str) -> None:
    problem = parse_duration(text)
    assert isinstance(problem, TimeProblem)
    assert reason_part in problem.reason


@pytest.mark.parametrize("text", ["あとで", "22時", "23:00", "30秒", "2mo", "3hex", ""])
def test_not_durations(text: str) -> None:
    assert parse_duration(text) is None


def test_units_go_from_large_to_small() -> None:
    """`30分1時間` reads `30分` and leaves `1時間` unread, so the caller refuses the line."""
    assert read_duration("30分1時間") == (timedelta(minutes=30), "1時間")
    assert parse_duration("30分1時間") is None
    assert parse_duration("1時間1時間") is None


def test_read_duration_returns_the_rest() -> None:
    assert read_duration("30分 トラブルのため") == (timedelta(minutes=30), " トラブルのため")
    assert read_duration("1日22時") == (timedelta(days=1), "22時")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("22:00", ClockTime(22, 0)),
        ("9:05", ClockTime(9, 5)),
        ("23時", ClockTime(23, 0)),
        ("23時30分", ClockTime(23, 30)),
        ("23時半", ClockTime(23, 30)),
        ("22時まで", ClockTime(22, 0)),
        ("22:00までに", ClockTime(22, 0)),
        ("24:00", ClockTime(24, 0)),
        ("25時", ClockTime(25, 0)),
        ("29:59", ClockTime(29, 59)),
        ("午後10時", ClockTime(22, 0)),
        ("午前9時半", ClockTime(9, 30)),
        ("11/30 22:00", ClockTime(22, 0, month=11, day=30)),
        ("11/30 22時", ClockTime(22, 0, month=11, day=30)),
        ("11/30日22時", ClockTime(22, 0, month=11, day=30)),
        ("11/30(日)22:00", ClockTime(22, 0, month=11, day=30)),
        ("11/30 (日) 22:00", ClockTime(22, 0, month=11, day=30)),
        ("11月30日 22時", ClockTime(22, 0, month=11, day=30)),
        ("11月30日22時30分", ClockTime(22, 30, month=11, day=30)),
        ("2026-11-30 22:00", ClockTime(22, 0, 2026, 11, 30)),
        ("2026/11/30 22:00", ClockTime(22, 0, 2026, 11, 30)),
        ("2026年11月30日 22時", ClockTime(22, 0, 2026, 11, 30)),
        ("2026-11-30T22:00", ClockTime(22, 0, 2026, 11, 30)),
        ("2/29 12:00", ClockTime(12, 0, month=2, day=29)),
        ("明日22時", ClockTime(22, 0, relative=1)),
        ("明日の22時", ClockTime(22, 0, relative=1)),
        ("あす 9:00", ClockTime(9, 0, relative=1)),
        ("今日 23:30", ClockTime(23, 30, relative=0)),
        ("本日23時", ClockTime(23, 0, relative=0)),
        ("tomorrow 22:00", ClockTime(22, 0, relative=1)),
        ("TODAY 22:00", ClockTime(22, 0, relative=0)),
    ],
)
def test_clock_times(text: str, expected: ClockTime) -> None:
    assert parse_clock_time(text) == expected


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("25:61", "時刻はありません"),
        ("30:00", "時刻はありません"),
        ("2/30 22:00", "日付はありません"),
        ("13/1 22:00", "日付はありません"),
        ("2027-02-29 22:00", "日付はありません"),
        ("1999-11-30 22:00", "2000～2199年"),
        ("30日22時", "月がありません"),
        ("明日 11/30 22:00", "両方"),
        ("午後12時", "0～11時"),
    ],
)
def test_bad_clock_times_say_why(text: str, reason_part: str) -> None:
    problem = parse_clock_time(text)
    assert isinstance(problem, TimeProblem)
    assert reason_part in problem.reason


@pytest.mark.parametrize("text", ["11/3022:00", "30分", "2時間", "あとで", "22", "123時", "22:5"])
def test_not_clock_times(text: str) -> None:
    assert parse_clock_time(text) is None


def test_read_clock_time_keeps_the_remark_with_its_space() -> None:
    assert read_clock_time("22:00 トラブルのため") == (ClockTime(22, 0), " トラブルのため")
    assert read_clock_time("22時まで延長") == (ClockTime(22, 0), "延長")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=JST)


@pytest.mark.parametrize(
    ("value", "now", "expected"),
    [
        (ClockTime(22, 0), "2026-11-30 21:00", "2026-11-30 22:00"),
        (ClockTime(22, 0), "2026-11-30 22:00", "2026-12-01 22:00"),  # "the next 22:00", never now
        (ClockTime(22, 0), "2026-11-30 23:00", "2026-12-01 22:00"),
        (ClockTime(24, 0), "2026-11-30 23:00", "2026-12-01 00:00"),
        (ClockTime(25, 0), "2026-11-30 23:00", "2026-12-01 01:00"),
        (ClockTime(25, 0), "2026-12-01 00:30", "2026-12-01 01:00"),
        (ClockTime(22, 0, relative=1), "2026-11-30 23:00", "2026-12-01 22:00"),
        (ClockTime(22, 0, relative=0), "2026-11-30 21:00", "2026-11-30 22:00"),
        (ClockTime(22, 0, month=12, day=24), "2026-11-30 21:00", "2026-12-24 22:00"),
        (ClockTime(22, 0, month=1, day=3), "2026-12-30 21:00", "2027-01-03 22:00"),
        (ClockTime(25, 0, month=12, day=31), "2026-12-31 12:00", "2027-01-01 01:00"),
        (ClockTime(22, 0, 2026, 11, 30), "2026-11-30 21:00", "2026-11-30 22:00"),
    ],
)
def test_next_after(value: ClockTime, now: str, expected: str) -> None:
    assert value.next_after(at(now)) == at(expected)


def test_next_after_answers_in_jst_whatever_the_zone_of_now() -> None:
    utc_noon = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # 21:00 JST
    assert ClockTime(22, 0).next_after(utc_noon) == at("2026-11-30 22:00")


@pytest.mark.parametrize(
    ("value", "now"),
    [
        (ClockTime(22, 0, relative=0), "2026-11-30 23:00"),  # 今日22時, but it is past 22:00
        (ClockTime(22, 0, 2026, 11, 30), "2026-12-01 09:00"),  # a dated moment already gone
        (ClockTime(12, 0, month=2, day=29), "2026-03-01 09:00"),  # no 2/29 in 2026 nor 2027
    ],
)
def test_next_after_is_none_for_a_moment_not_ahead(value: ClockTime, now: str) -> None:
    assert value.next_after(at(now)) is None


@pytest.mark.parametrize(
    ("value", "canonical", "ascii"),
    [
        (ClockTime(22, 0), "22:00", "22:00"),
        (ClockTime(25, 30), "25:30", "25:30"),
        (ClockTime(9, 5, relative=1), "明日 09:05", "tomorrow 09:05"),
        (ClockTime(22, 0, relative=0), "今日 22:00", "today 22:00"),
        (ClockTime(22, 0, month=11, day=30), "11/30 22:00", "11/30 22:00"),
        (ClockTime(22, 0, 2026, 1, 2), "2026-01-02 22:00", "2026-01-02 22:00"),
    ],
)
def test_clock_time_spellings_read_back(value: ClockTime, canonical: str, ascii: str) -> None:
    assert (value.canonical, value.ascii) == (canonical, ascii)
    assert parse_clock_time(canonical) == value
    assert parse_clock_time(ascii) == value


@pytest.mark.parametrize(
    ("minutes", "ja", "ascii"),
    [(30, "30分", "30m"), (90, "1時間30分", "1h30m"), (1440, "1日", "1d"), (1590, "1日2時間30分", "1d2h30m")],
)
def test_duration_spellings_read_back(minutes: int, ja: str, ascii: str) -> None:
    span = timedelta(minutes=minutes)
    assert (duration_ja(span), duration_ascii(span)) == (ja, ascii)
    assert parse_duration(ja) == parse_duration(ascii) == span


def test_longest_extension_is_accepted_and_one_minute_more_is_not() -> None:
    longest = MAX_EXTENSION // timedelta(minutes=1)
    assert parse_duration(f"{longest}分") == MAX_EXTENSION
    assert isinstance(parse_duration(f"{longest + 1}分"), TimeProblem)
