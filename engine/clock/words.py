"""The words of period schedules: durations, clock times, moments and weekdays, read and written.

Everything a GM writes in a schedule table or an adjustment (`30m`, `1時間30分`, `21:00`, `21時`,
`2026-11-29 21:00`, `土`) is read here, full-width or half-width alike (NFKC), and everything the
bot says about time (`1時間30分`, `11/29(日) 21:00`) is written here. Schedules live in JST
(UTC+9, no daylight saving time). Bad input raises `ScheduleError` with a Japanese message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta, timezone

from parser.durations import read_span

JST = timezone(timedelta(hours=9), "JST")

# Longer than any schedule needs, short enough that no boundary arithmetic leaves datetime's range.
MAX_DURATION = timedelta(days=1000)

WEEKDAY_KANJI = "月火水木金土日"
# Python's numbering (Monday 0 … Sunday 6); APScheduler 3 uses the same names for `day_of_week`.
WEEKDAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY_WORDS: dict[str, int] = {}
for _index, (_kanji, _name) in enumerate(zip(WEEKDAY_KANJI, WEEKDAY_NAMES, strict=True)):
    _full = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")[_index]
    for _word in (_kanji, _kanji + "曜", _kanji + "曜日", _name, _full):
        _WEEKDAY_WORDS[_word] = _index
_WEEKDAY_WORDS["tues"] = 1
_WEEKDAY_WORDS["thur"] = _WEEKDAY_WORDS["thurs"] = 3

_CLOCK = re.compile(r"(?P<h>\d{1,2})(?::(?P<m>\d{2})|時(?:(?P<jm>\d{1,2})分|(?P<half>半))?)")
_MOMENT = re.compile(
    r"(?P<y>\d{4})[-/](?P<mo>\d{1,2})[-/](?P<d>\d{1,2})"
    r"(?:[ T]+(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?)?"
    r"(?P<tz>Z|[+-]\d{2}:?\d{2})?"
)

DURATION_EXAMPLES = "例: 30m、2h、1h30m、1d、90s、30分、1時間30分、1日"
CLOCK_EXAMPLES = "例: 21:00、9:30、21時、21時30分"
MOMENT_EXAMPLES = "例: 2026-11-29 21:00、2026/11/29 21:00"


class ScheduleError(ValueError):
    """A schedule, an adjustment or a time the bot cannot use; `errors` holds each Japanese message."""

    def __init__(self, errors: str | Sequence[str]) -> None:
        self.errors: tuple[str, ...] = (errors,) if isinstance(errors, str) else tuple(errors)
        if len(self.errors) == 1:
            message = self.errors[0]
        else:
            message = "スケジュールの設定に誤りがあります：\n" + "\n".join(
                f"- {error}" for error in self.errors
            )
        super().__init__(message)


def normalize(text: str) -> str:
    """NFKC, trimmed, lower-cased, inner spaces removed: what the readers below match against."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()


def parse_duration(text: object) -> timedelta:
    """`30m`, `2h`, `1h30m`, `1d`, `90s`, `30分`, `2時間`, `1時間30分`, `1時間半`, `1日` → a timedelta (≥ 0)."""
    if not isinstance(text, str):
        raise ScheduleError(f"期間「{text}」は文字列で書いてください（{DURATION_EXAMPLES}）")
    written = unicodedata.normalize("NFKC", text).strip()
    span = read_span(written)
    if span is None or written[span.end :].strip():
        raise ScheduleError(f"期間「{text}」が読めません（{DURATION_EXAMPLES}）")
    if span.seconds > MAX_DURATION.total_seconds():
        raise ScheduleError(f"期間「{text}」が長すぎます（{format_duration(MAX_DURATION)}まで）")
    if span.seconds != span.seconds.to_integral_value():
        raise ScheduleError(f"期間「{text}」は秒単位で書いてください（{DURATION_EXAMPLES}）")
    return timedelta(seconds=int(span.seconds))


def parse_clock_time(text: object) -> time:
    """`21:00`, `9:30`, `21時`, `21時30分`, `21時半` (JST clock time) → a time."""
    if not isinstance(text, str):
        raise ScheduleError(f"時刻「{text}」は文字列で書いてください（{CLOCK_EXAMPLES}）")
    match = _CLOCK.fullmatch(normalize(text))
    if not match:
        raise ScheduleError(f"時刻「{text}」が読めません（{CLOCK_EXAMPLES}）")
    hour = int(match["h"])
    minute = int(match["m"] or match["jm"] or (30 if match["half"] else 0))
    if hour > 23 or minute > 59:
        raise ScheduleError(f"時刻「{text}」は 0:00～23:59 の範囲で書いてください")
    return time(hour, minute)


def parse_moment(value: object) -> datetime:
    """A moment in JST: `2026-11-29 21:00`, `2026/11/29 21:00`, a TOML date-time (a naive one is JST),
    or a TOML date (its midnight). Returns an aware datetime in JST."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=JST) if value.tzinfo is None else value.astimezone(JST)
    if isinstance(value, date):
        return datetime.combine(value, time(), JST)
    if not isinstance(value, str):
        raise ScheduleError(f"日時「{value}」は文字列で書いてください（{MOMENT_EXAMPLES}）")
    match = _MOMENT.fullmatch(unicodedata.normalize("NFKC", value).strip().upper())
    if not match:
        raise ScheduleError(f"日時「{value}」が読めません（{MOMENT_EXAMPLES}）")
    zone = JST
    if match["tz"]:
        digits = "0000" if match["tz"] == "Z" else match["tz"][1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        if offset >= timedelta(hours=24):
            raise ScheduleError(f"日時「{value}」の時差が読めません")
        zone = timezone(-offset if match["tz"].startswith("-") else offset)
    try:
        moment = datetime(
            int(match["y"]),
            int(match["mo"]),
            int(match["d"]),
            int(match["h"] or 0),
            int(match["mi"] or 0),
            int(match["s"] or 0),
            tzinfo=zone,
        )
    except ValueError:
        raise ScheduleError(f"日時「{value}」は存在しない日付か時刻です") from None
    return moment.astimezone(JST)


def parse_weekday(text: object) -> int:
    """`土`, `土曜`, `土曜日`, `sat`, `Saturday` → 5 (Monday 0 … Sunday 6)."""
    if isinstance(text, str) and normalize(text) in _WEEKDAY_WORDS:
        return _WEEKDAY_WORDS[normalize(text)]
    raise ScheduleError(f"曜日「{text}」が読めません（例: 土、日曜、sat、sun）")


def format_duration(span: timedelta) -> str:
    """`1日6時間`, `1時間30分`, `1分30秒`, `0分`: the largest units first, zero parts left out."""
    seconds = int(span.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{count}{unit}"
        for count, unit in ((days, "日"), (hours, "時間"), (minutes, "分"), (secs, "秒"))
        if count
    ]
    return sign + ("".join(parts) or "0分")


def format_clock_time(moment: time | datetime) -> str:
    """`21:00`, or `21:00:30` when the seconds are not zero."""
    return moment.strftime("%H:%M:%S" if moment.second else "%H:%M")


def format_moment(moment: datetime, *, year: bool = False) -> str:
    """`11/29(日) 21:00` in JST, or `2026/11/29(日) 21:00` with the year, as boards print dates."""
    local = moment.astimezone(JST)
    day = f"{local.year}/{local.month}/{local.day}" if year else f"{local.month}/{local.day}"
    return f"{day}({WEEKDAY_KANJI[local.weekday()]}) {format_clock_time(local)}"


def format_anchor(moment: datetime) -> str:
    """`2026-11-29 21:00` in JST: the way a schedule table writes a moment."""
    local = moment.astimezone(JST)
    return f"{local.date().isoformat()} {format_clock_time(local)}"


def require_aware(moment: datetime) -> datetime:
    """The moment in JST; a naive datetime is a programming error (the machinery always has zones)."""
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        raise ValueError(f"an aware datetime is required, got {moment!r}")
    return moment.astimezone(JST)
