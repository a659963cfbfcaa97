"""The time values of the GM's 延長 command: durations (`30分`, `1h30m`) and JST clock times (`22:00`).

Durations are (number, unit) pairs in decreasing order, Japanese and ASCII units alike, spaces allowed
between pairs: `30分`, `2時間`, `1時間30分`, `1時間半`, `1日`, `1日半`, `90m`, `2h`, `1h30m`, `1d`,
`1.5h`. The total must be whole minutes, more than zero and at most `MAX_EXTENSION`.

Clock times are Japan time: `22:00`, `23時`, `23時30分`, `23時半`, `午後10時`, `11/30 22:00`,
`11月30日 22時`, `11/30(日) 22:00`, `2026-11-30 22:00`, `2026/11/30 22:00`, `明日 22時` (`今日`/`本日`/
`明日`/`あした`/`あす`, ASCII `today`/`tomorrow`), optionally followed by `まで`/`までに`/`に`. Hours run to
29 as boards count the night (`25時` is 1:00 the next day). A day without its month (`30日 22時`) is
refused rather than guessed. `ClockTime.next_after` turns the value into a moment, given "now".

Readers take the text after NFKC and answer `(value, rest)` when the text starts with a value, a
`TimeProblem` (Japanese reason) when it starts like one but is wrong, or None when it is neither.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

import regex

from parser.durations import read_span

JST = timezone(timedelta(hours=9), "JST")
MAX_EXTENSION = timedelta(days=31)
FIRST_YEAR, LAST_YEAR = 2000, 2199
LAST_HOUR = 29  # 29:59 is 5:59 the next morning, the latest a board's "night" hour goes

_BARE_NUMBER = regex.compile(r"\s*+([0-9]{1,12}(?:\.[0-9]++)?)(?=\s|$)")

_RELATIVE = {"今日": 0, "本日": 0, "today": 0, "明日": 1, "あした": 1, "あす": 1, "tomorrow": 1}
_CLOCK = regex.compile(
    # Possessive quantifiers (`*+`): spaces are never handed back, so no input makes this backtrack.
    r"(?:(?P<rel>今日|本日|明日|あした|あす|today|tomorrow)\s*+(?:の\s*+)?)?"
    r"(?:"
    r"(?:(?P<y>[0-9]{4})\s*+[-/年.]\s*+(?P<mo>[0-9]{1,2})\s*+[-/月.]\s*+(?P<d>[0-9]{1,2})"
    r"|(?P<mo2>[0-9]{1,2})\s*+[/月]\s*+(?P<d2>[0-9]{1,2})"
    r"|(?P<dd>[0-9]{1,2})(?=\s*+日))"
    # A date must be set apart from the hour (`11/30 22:00`, `11/30日22時`, `11/30(日)22:00`), or
    # `11/3022:00` would be read as the 30th at 22:00.
    r"(?:\s*+日)?(?:\s*+\((?P<wd>[^()]{1,3})\))?(?:\s++|T|(?<=[日)]))"
    r")?"
    r"(?:(?P<ampm>午前|午後)\s*+)?"
    r"(?P<h>[0-9]{1,2})\s*+(?::\s*+(?P<mi>[0-9]{2})|時(?:\s*+(?P<mi2>[0-9]{1,2})\s*+分|(?P<half>半))?)"
    r"(?![0-9])(?:\s*+(?:までに|まで|に))?",
    regex.IGNORECASE,
)
_RELATIVE_JA = {0: "今日", 1: "明日"}
_RELATIVE_ASCII = {0: "today", 1: "tomorrow"}


@dataclass(frozen=True)
class TimeProblem:
    """Text that starts like a duration or a time but cannot be one; `reason` is Japanese."""

    reason: str


@dataclass(frozen=True)
class ClockTime:
    """A wall-clock moment in JST as the GM wrote it: the time, and the date when given.

    `relative` is 0 for 今日 and 1 for 明日; `month`/`day` (and `year`) are a calendar date; with
    neither, the time is "the next time the clock shows it". `hour` may be 24–29 (the next day).
    """

    hour: int
    minute: int
    year: int | None = None
    month: int | None = None
    day: int | None = None
    relative: int | None = None

    def _date_text(self, relative_words: dict[int, str]) -> str:
        if self.relative is not None:
            return f"{relative_words[self.relative]} "
        if self.year is not None:
            return f"{self.year:04d}-{self.month:02d}-{self.day:02d} "
        if self.month is not None:
            return f"{self.month}/{self.day} "
        return ""

    @property
    def dated(self) -> bool:
        """The GM named the day (今日/明日, a month and day, a full date), not only the clock time."""
        return self.relative is not None or self.month is not None

    @property
    def canonical(self) -> str:
        """`22:00`, `明日 22:00`, `11/30 22:00` or `2026-11-30 22:00`."""
        return f"{self._date_text(_RELATIVE_JA)}{self.hour:02d}:{self.minute:02d}"

    @property
    def ascii(self) -> str:
        """As `canonical`, with `today`/`tomorrow` for 今日/明日."""
        return f"{self._date_text(_RELATIVE_ASCII)}{self.hour:02d}:{self.minute:02d}"

    def next_after(self, moment: datetime) -> datetime | None:
        """The JST moment this names, judged at `moment` (aware): the first one after it.

        A bare time is its next occurrence; a month/day without a year is this year's, else next
        year's. None when the named moment is not after `moment` (a past 今日 or dated time) or the
        date does not exist in the year it falls in (2/29).
        """
        now = moment.astimezone(JST)
        extra_days, hour = divmod(self.hour, 24)
        if self.relative is not None:
            days = [now.date() + timedelta(days=self.relative)]
        elif self.month is not None and self.day is not None:
            years = [self.year] if self.year is not None else [now.year, now.year + 1]
            days = [
                date(year, self.month, self.day) for year in years if _valid_day(year, self.month, self.day)
            ]
        else:
            days = [now.date() + timedelta(days=offset) for offset in (-1, 0, 1)]
        for day in days:
            candidate = datetime.combine(day + timedelta(days=extra_days), time(hour, self.minute), JST)
            if candidate > now:
                return candidate
        return None


def _valid_day(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]


def read_duration(text: str) -> tuple[timedelta, str] | TimeProblem | None:
    """A duration at the start of `text` (NFKC) and the text after it."""
    span = read_span(text, units="dhm")
    if span is None:
        bare = _BARE_NUMBER.match(text)
        if bare is not None:
            return TimeProblem(f"「{bare[1]}」に単位（分・時間・日）を付けてください（例：30分、2時間）")
        return None
    written = text[: span.end].strip()
    minutes = span.seconds / 60
    if minutes != minutes.to_integral_value():
        return TimeProblem(f"「{written}」は分単位になりません（例：1時間30分、1.5h）")
    if minutes <= 0:
        return TimeProblem("延長する長さが0です")
    if minutes > MAX_EXTENSION // timedelta(minutes=1):
        return TimeProblem(f"延長できるのは一度に{MAX_EXTENSION.days}日までです")
    return timedelta(minutes=int(minutes)), text[span.end :]


def read_clock_time(text: str) -> tuple[ClockTime, str] | TimeProblem | None:
    """A JST clock time (with an optional date) at the start of `text` (NFKC) and the text after it."""
    match = _CLOCK.match(text)
    if match is None:
        return None
    written = match[0].strip()
    relative = _RELATIVE[match["rel"].lower()] if match["rel"] else None
    year = int(match["y"]) if match["y"] else None
    month = int(match["mo"] or match["mo2"]) if (match["mo"] or match["mo2"]) else None
    day = int(match["d"] or match["d2"]) if (match["d"] or match["d2"]) else None
    if match["dd"]:
        return TimeProblem(f"「{written}」の月がありません（例：11/30 22:00）")
    if year is not None and not FIRST_YEAR <= year <= LAST_YEAR:
        return TimeProblem(f"「{written}」の年は{FIRST_YEAR}～{LAST_YEAR}年で書いてください")
    if relative is not None and month is not None:
        return TimeProblem(f"「{written}」は日付と「{match['rel']}」の両方を書いています")
    if month is not None and day is not None and not _valid_day(year or 2000, month, day):
        return TimeProblem(f"「{written}」という日付はありません")
    hour = int(match["h"])
    minute = 30 if match["half"] else int(match["mi"] or match["mi2"] or 0)
    if match["ampm"]:
        if hour > 11:
            return TimeProblem(f"「{written}」：午前・午後の時刻は0～11時で書いてください")
        hour += 12 if match["ampm"] == "午後" else 0
    if hour > LAST_HOUR or minute > 59:
        return TimeProblem(f"「{written}」という時刻はありません")
    return ClockTime(hour, minute, year, month, day, relative), text[match.end() :]


def parse_duration(text: str) -> timedelta | TimeProblem | None:
    """The whole of `text` as a duration (None when it is not one)."""
    read = read_duration(text)
    if isinstance(read, tuple):
        return read[0] if not read[1].strip() else None
    return read


def parse_clock_time(text: str) -> ClockTime | TimeProblem | None:
    """The whole of `text` as a clock time (None when it is not one)."""
    read = read_clock_time(text)
    if isinstance(read, tuple):
        return read[0] if not read[1].strip() else None
    return read


def duration_ja(span: timedelta) -> str:
    """`1日2時間30分` (zero parts left out)."""
    return _duration_text(span, ("日", "時間", "分"))


def duration_ascii(span: timedelta) -> str:
    """`1d2h30m` (zero parts left out)."""
    return _duration_text(span, ("d", "h", "m"))


def _duration_text(span: timedelta, units: tuple[str, str, str]) -> str:
    total = int(span / timedelta(minutes=1))
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{value}{unit}" for value, unit in zip((days, hours, minutes), units, strict=True) if value]
    return "".join(parts) or f"0{units[2]}"
