"""A game's period schedule: the regular boundaries (ピリオド更新の時刻) and the options around them.

A schedule is read from the game's TOML table (`[game.schedule]`) by `parse_schedule`. Its boundaries
come from one of three rules, all in JST:

- `DailyTimes`: `times = ["12:00", "21:00"]`, optionally only on `days = ["土", "日"]`;
- `CronRule`: `cron = "0 21 * * *"` (minute hour day-of-month month day-of-week, as crontab(5) reads it:
  0 and 7 are Sunday, and when both day fields are restricted either one matching is enough);
- `Interval`: `interval = "6h"` from `anchor = "2026-11-29 21:00"`, the first boundary; the boundaries
  are anchor + k × interval for k = 0, 1, 2, … (none before the anchor).

APScheduler 3's `CronTrigger` does the calendar work of the first two. Its crontab reader numbers
weekdays from Monday (its issue 286), so the day-of-week field is translated here to weekday names.
APScheduler is imported with the first schedule of times or cron read, not with this module: the
configuration checks and the referee import it, and a bot of dice tables alone never reads one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING

from engine.clock.words import (
    JST,
    WEEKDAY_KANJI,
    WEEKDAY_NAMES,
    ScheduleError,
    format_anchor,
    format_clock_time,
    format_duration,
    parse_clock_time,
    parse_duration,
    parse_moment,
    parse_weekday,
    require_aware,
)

if TYPE_CHECKING:
    from apscheduler.triggers.cron import CronTrigger

DEFAULT_GRACE = timedelta(minutes=2)
KEYS = ("times", "days", "cron", "interval", "anchor", "grace", "reminders", "early", "min_period")
CRON_FIELDS = ("分", "時", "日", "月", "曜日")
CRON_MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
# A fixed reference for "does this rule ever fire" checks; no clock is read.
_REFERENCE = datetime(2000, 1, 1, tzinfo=JST)
_TICK = timedelta(microseconds=1)
# How far back previous_boundary looks: past any leap day (29 Feb skips whole centuries like 2100).
_LOOKBACK = timedelta(days=9 * 366)


def _cron(**fields: str | int | None) -> CronTrigger:
    """APScheduler's cron trigger of `fields`, in JST."""
    from apscheduler.triggers.cron import CronTrigger

    return CronTrigger(**fields, timezone=JST)


class _Triggers:
    """The union of some cron triggers: the earliest fire time of any of them."""

    def __init__(self, triggers: Sequence[CronTrigger]) -> None:
        self.triggers = tuple(triggers)

    def at_or_after(self, moment: datetime) -> datetime | None:
        fires = [fire for trigger in self.triggers if (fire := trigger.get_next_fire_time(None, moment))]
        return min(fires) if fires else None

    def next_after(self, moment: datetime) -> datetime:
        # Fire times are whole seconds and CronTrigger rounds `now` up to one, so +1µs is "strictly after".
        fire = self.at_or_after(moment + _TICK)
        if fire is None:
            raise ScheduleError(f"{format_anchor(moment)} より後に更新時刻がありません")
        return fire

    def at_or_before(self, moment: datetime) -> datetime | None:
        # No backward search in CronTrigger: find a window holding a fire time, then bisect on "the first
        # fire at or after t is still ≤ moment", which holds exactly for t up to the fire time sought.
        window = timedelta(days=1)
        while True:
            low = moment - window
            first = self.at_or_after(low)
            if first is not None and first <= moment:
                break
            if window >= _LOOKBACK:
                return None
            window *= 2
        high = moment + _TICK
        while high - low > timedelta(seconds=1):
            middle = low + (high - low) / 2
            fire = self.at_or_after(middle)
            if fire is not None and fire <= moment:
                low = middle
            else:
                high = middle
        return self.at_or_after(low)


@dataclass(frozen=True)
class DailyTimes:
    """Every day (or only on `days`, Monday 0 … Sunday 6) at each of `times` (JST)."""

    times: tuple[time, ...]
    days: tuple[int, ...] = ()
    _triggers: _Triggers = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_minute: dict[int, list[int]] = {}
        for moment in self.times:
            by_minute.setdefault(moment.minute, []).append(moment.hour)
        day_of_week = ",".join(WEEKDAY_NAMES[day] for day in self.days) if self.days else None
        triggers = [
            _cron(hour=",".join(map(str, sorted(hours))), minute=minute, day_of_week=day_of_week)
            for minute, hours in sorted(by_minute.items())
        ]
        object.__setattr__(self, "_triggers", _Triggers(triggers))

    def next_boundary(self, after: datetime) -> datetime:
        return self._triggers.next_after(after)

    def previous_boundary(self, at: datetime) -> datetime | None:
        return self._triggers.at_or_before(at)

    def describe(self) -> str:
        when = "・".join(format_clock_time(moment) for moment in self.times)
        if not self.days or len(self.days) == 7:
            return f"毎日 {when}（日本時間）"
        return f"毎週{'・'.join(WEEKDAY_KANJI[day] for day in self.days)} {when}（日本時間）"


@dataclass(frozen=True)
class CronRule:
    """A crontab(5) expression in JST (`0 21 * * *`, `30 12 * * sat,sun`, `@daily`)."""

    expression: str
    _triggers: _Triggers = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_triggers", _Triggers(cron_triggers(self.expression)))

    def next_boundary(self, after: datetime) -> datetime:
        return self._triggers.next_after(after)

    def previous_boundary(self, at: datetime) -> datetime | None:
        return self._triggers.at_or_before(at)

    def describe(self) -> str:
        return f"cron「{self.expression}」の時刻（日本時間）"


@dataclass(frozen=True)
class Interval:
    """Every `every` from `anchor`, the first boundary."""

    every: timedelta
    anchor: datetime

    def next_boundary(self, after: datetime) -> datetime:
        if after < self.anchor:
            return self.anchor
        return self.anchor + ((after - self.anchor) // self.every + 1) * self.every

    def previous_boundary(self, at: datetime) -> datetime | None:
        if at < self.anchor:
            return None
        return self.anchor + ((at - self.anchor) // self.every) * self.every

    def describe(self) -> str:
        return f"{format_duration(self.every)}ごと（{format_anchor(self.anchor)} から）"


Rule = DailyTimes | CronRule | Interval


@dataclass(frozen=True)
class Schedule:
    """When periods close, and the options the period machinery reads.

    `grace`: a post stamped at or before the deadline still counts; the period is resolved at deadline +
    grace. `reminders`: how long before a deadline to remind (longest first). `early`: resolve as soon as
    every player has written the ready word. `min_period`: a period that opens between boundaries (the
    game start, after an early close or a moved deadline) skips boundaries closer than this.
    """

    rule: Rule
    grace: timedelta = DEFAULT_GRACE
    reminders: tuple[timedelta, ...] = ()
    early: bool = False
    min_period: timedelta = timedelta()

    def next_boundary(self, after: datetime) -> datetime:
        """The first boundary strictly after `after`, in JST."""
        return self.rule.next_boundary(require_aware(after)).astimezone(JST)

    def previous_boundary(self, at: datetime) -> datetime | None:
        """The last boundary at or before `at`, in JST; None when there is none (before an interval's
        anchor, or a cron rule silent for years)."""
        boundary = self.rule.previous_boundary(require_aware(at))
        return None if boundary is None else boundary.astimezone(JST)


def _expand_weekdays(text: str) -> set[int]:
    """A crontab day-of-week field (`1-5`, `sat,sun`, `*/2`, `0,6`, `mon-fri/2`) → weekdays, Sunday 0."""
    numbers = {name: (index + 1) % 7 for index, name in enumerate(WEEKDAY_NAMES)}

    def value(token: str, *, end: bool) -> int:
        token = token.lower()
        if token.isdigit() and int(token) <= 7:
            return int(token)
        if token in numbers:
            # `sat-sun`: Sunday closes a range as 7.
            return 7 if end and token == "sun" else numbers[token]
        raise ValueError(token)

    days: set[int] = set()
    for part in text.split(","):
        span, _, step_text = part.partition("/")
        step = int(step_text) if step_text.isdigit() and int(step_text) > 0 else None
        if step_text and step is None:
            raise ValueError(part)
        if span == "*":
            first, last = 0, 6
        elif "-" in span:
            low, _, high = span.partition("-")
            first, last = value(low, end=False), value(high, end=True)
            if first > last:
                raise ValueError(part)
        else:
            first = value(span, end=False)
            last = 6 if step else first
        days.update(day % 7 for day in range(first, last + 1, step or 1))
    return days


def cron_triggers(expression: str) -> list[CronTrigger]:
    """The triggers of a crontab expression (two when both day fields are restricted: either may match)."""
    fields = CRON_MACROS.get(expression.strip().lower(), expression).split()
    if len(fields) != 5:
        raise ScheduleError(
            f"cron「{expression}」は「分 時 日 月 曜日」の5項目で書いてください（例: 0 21 * * *）"
        )
    minute, hour, day, month, weekday = fields
    try:
        weekdays = _expand_weekdays(weekday)
    except ValueError:
        raise ScheduleError(
            f"cron「{expression}」の曜日「{weekday}」が読めません（0～7 または sun～sat、0と7は日曜）"
        ) from None
    day_of_week = ",".join(WEEKDAY_NAMES[(day - 1) % 7] for day in sorted(weekdays))
    for name, label, text in zip(("minute", "hour", "day", "month"), CRON_FIELDS, fields[:4], strict=False):
        try:
            _cron(**{name: text})
        except ValueError:
            raise ScheduleError(f"cron「{expression}」の{label}「{text}」が範囲外か読めません") from None
    # crontab(5): a field starting with `*` is unrestricted; when neither day field is, either may match.
    if not day.startswith("*") and not weekday.startswith("*"):
        variants = [(day, None), ("*", day_of_week)]
    else:
        variants = [(day, None if weekday.startswith("*") and len(weekdays) == 7 else day_of_week)]
    triggers = [
        _cron(minute=minute, hour=hour, day=dom, month=month, day_of_week=dow) for dom, dow in variants
    ]
    if all(trigger.get_next_fire_time(None, _REFERENCE) is None for trigger in triggers):
        raise ScheduleError(f"cron「{expression}」では更新時刻が一度も来ません（存在しない日付など）")
    return triggers


def _text_list(value: object, key: str, errors: list[str]) -> list[str] | None:
    """A TOML value that should be a list of strings (a lone string counts as a list of one)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    errors.append(f'{key} は文字列の配列で書いてください（例: {key} = ["{_LIST_EXAMPLES[key]}"]）')
    return None


_LIST_EXAMPLES = {"times": "21:00", "days": "土", "reminders": "30m"}


def _duration(table: Mapping[str, object], key: str, default: timedelta, errors: list[str]) -> timedelta:
    if key not in table:
        return default
    try:
        return parse_duration(table[key])
    except ScheduleError as error:
        errors.append(f"{key}: {error}")
        return default


def _daily_times(table: Mapping[str, object], errors: list[str]) -> DailyTimes | None:
    texts = _text_list(table["times"], "times", errors)
    moments: set[time] = set()
    for text in texts or ():
        try:
            moments.add(parse_clock_time(text))
        except ScheduleError as error:
            errors.append(f"times: {error}")
    if texts is not None and not texts:
        errors.append('times が空です（例: times = ["12:00", "21:00"]）')
    days: set[int] = set()
    if "days" in table:
        day_texts = _text_list(table["days"], "days", errors)
        for text in day_texts or ():
            # `days = "土日"`: a run of weekday kanji reads as that many days.
            words = list(text) if len(text) > 1 and all(char in WEEKDAY_KANJI for char in text) else [text]
            for word in words:
                try:
                    days.add(parse_weekday(word))
                except ScheduleError as error:
                    errors.append(f"days: {error}")
        if day_texts is not None and not day_texts:
            errors.append("days が空です（毎日なら days を書かないでください）")
    if not moments:
        return None
    return DailyTimes(tuple(sorted(moments)), tuple(sorted(days)))


def _interval(table: Mapping[str, object], errors: list[str]) -> Interval | None:
    every = None
    try:
        every = parse_duration(table["interval"])
    except ScheduleError as error:
        errors.append(f"interval: {error}")
    if every is not None and every <= timedelta():
        errors.append("interval は 0 より長くしてください")
        every = None
    anchor = None
    if "anchor" not in table:
        errors.append('interval には最初の更新時刻 anchor が要ります（例: anchor = "2026-11-29 21:00"）')
    else:
        try:
            anchor = parse_moment(table["anchor"])
        except ScheduleError as error:
            errors.append(f"anchor: {error}")
    if every is None or anchor is None:
        return None
    return Interval(every, anchor)


def _unknown_keys(table: Mapping[str, object], errors: list[str]) -> None:
    for key in table:
        if key not in KEYS:
            import difflib  # for a mistake's hint only: a process that reads no schedule never loads it

            close = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"「{close[0]}」のことですか？" if close else f"使える項目: {', '.join(KEYS)}"
            errors.append(f"不明な項目「{key}」です（{hint}）")


def _cron_rule(table: Mapping[str, object], errors: list[str]) -> CronRule | None:
    if not isinstance(table["cron"], str):
        errors.append('cron は文字列で書いてください（例: cron = "0 21 * * *"）')
        return None
    try:
        return CronRule(table["cron"].strip())
    except ScheduleError as error:
        errors.extend(error.errors)
        return None


def _rule(table: Mapping[str, object], errors: list[str]) -> Rule | None:
    """The one boundary rule the table names (times, cron or interval), or None after an error."""
    kinds = [key for key in ("times", "cron", "interval") if key in table]
    if not kinds:
        errors.append("更新時刻の指定がありません（times・cron・interval のどれかを書いてください）")
        return None
    if len(kinds) > 1:
        errors.append(f"{' と '.join(kinds)} は同時に使えません（どれか一つにしてください）")
        return None
    if kinds == ["times"]:
        return _daily_times(table, errors)
    if kinds == ["cron"]:
        return _cron_rule(table, errors)
    return _interval(table, errors)


def _stray_options(table: Mapping[str, object], errors: list[str]) -> None:
    """Options of one rule written beside another."""
    if "days" in table and "times" not in table:
        errors.append("days は times と一緒に使います（cron なら曜日の項目で指定してください）")
    if "anchor" in table and "interval" not in table:
        errors.append("anchor は interval と一緒に使います")


def _reminders(table: Mapping[str, object], errors: list[str]) -> set[timedelta]:
    reminders: set[timedelta] = set()
    reminder_texts = _text_list(table["reminders"], "reminders", errors) if "reminders" in table else []
    for text in reminder_texts or ():
        try:
            before = parse_duration(text)
        except ScheduleError as error:
            errors.append(f"reminders: {error}")
            continue
        if before <= timedelta():
            errors.append(f"reminders: 「{text}」は締切の何分前かを 0 より長く書いてください")
        reminders.add(before)
    return reminders


def _early(table: Mapping[str, object], errors: list[str]) -> bool:
    early = table.get("early", False)
    if not isinstance(early, bool):
        errors.append("early は true か false で書いてください")
        return False
    return early


def parse_schedule(table: Mapping[str, object]) -> Schedule:
    """A schedule from its TOML table; every problem found is reported at once in a ScheduleError."""
    if not isinstance(table, Mapping):
        raise ScheduleError("スケジュールは表（[game.schedule]）で書いてください")
    # Each helper appends what it finds, in the order the messages are shown.
    errors: list[str] = []
    _unknown_keys(table, errors)
    rule = _rule(table, errors)
    _stray_options(table, errors)
    grace = _duration(table, "grace", DEFAULT_GRACE, errors)
    min_period = _duration(table, "min_period", timedelta(), errors)
    reminders = _reminders(table, errors)
    early = _early(table, errors)
    if errors or rule is None:
        raise ScheduleError(errors or ["スケジュールが読めません"])
    return Schedule(rule, grace, tuple(sorted(reminders, reverse=True)), early, min_period)


def describe(schedule: Schedule, *, full: bool = False) -> str:
    """The schedule in one Japanese line for help and status posts: `毎日 12:00・21:00（日本時間）`,
    `6時間ごと（2026-11-29 21:00 から）`; `full` adds the grace, reminders and early resolution."""
    text = schedule.rule.describe()
    if not full:
        return text
    details = [
        f"更新処理は締切の{format_duration(schedule.grace)}後" if schedule.grace else "締切と同時に更新処理"
    ]
    if schedule.reminders:
        details.append(
            f"お知らせは締切の{'・'.join(format_duration(before) for before in schedule.reminders)}前"
        )
    if schedule.early:
        details.append("全員の準備完了で即時更新")
    return "、".join([text, *details])
