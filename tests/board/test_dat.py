"""The dat line's date field: what `format_date` writes is what strftime writes with the board's
weekday names, for any moment and any names SETTING.TXT can give."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import example, given
from hypothesis import strategies as st

from board.dat import format_date
from board.settings import DEFAULTS

WEEKDAYS = DEFAULTS["BBS_YMD_WEEKS"].split("/")


def by_strftime(moment: datetime, weekdays: list[str]) -> str:
    weekday = weekdays[(moment.weekday() + 1) % 7]
    return moment.strftime(f"%Y/%m/%d({weekday}) %H:%M:%S")


def test_a_post_of_sunday_evening_in_jst() -> None:
    moment = datetime(2026, 11, 29, 21, 22, 13, 999_999, tzinfo=timezone(timedelta(hours=9)))
    assert format_date(moment, WEEKDAYS) == "2026/11/29(日) 21:22:13"


@given(
    st.datetimes(timezones=st.just(UTC)),
    st.lists(st.text(st.sampled_from("%\0Ymd日") | st.characters(), max_size=4), min_size=7, max_size=7)
    | st.just(WEEKDAYS),
)
@example(datetime(2020, 1, 5, tzinfo=UTC), ["日\0曜"] * 7)
@example(datetime(999, 1, 5, tzinfo=UTC), ["%Y"] * 7)
def test_the_date_is_what_strftime_writes(moment: datetime, weekdays: list[str]) -> None:
    # Years before 1000 too (glibc's %Y does not pad them), and weekday names holding a `%…` or a
    # NUL (where strftime stops writing).
    assert format_date(moment, weekdays) == by_strftime(moment, weekdays)
