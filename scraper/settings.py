"""A board's limits as a client needs them: SETTING.TXT (2ch) or setting.cgi (したらば).

Read when the bot starts on a thread and again before it posts once the last read is a minute old:
the posts limit (BBS_THREAD_STOP, else BBS_RES_MAX, else 1000), the post size limits the bot must
split its answers under, the samba seconds it must pace its posts by, and ex0ch's 連投規制 (a writer
may hold at most `timeclose` of a thread's last `timecount` posts). A board that hides its settings
gets the common defaults (ex0ch's), never an error. An answer that is no settings file (a maintenance
page, a portal, an empty or re-encoded answer) is not read as one: the limits read before are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scraper import http
from scraper.http import Reader, network_errors
from scraper.refs import ThreadRef

if TYPE_CHECKING:
    import requests


@dataclass(frozen=True)
class BoardLimits:
    res_max: int = 1000
    lines: int = 24  # a post may hold 2 × BBS_LINE_NUMBER lines on ex0ch
    chars: int = 2048
    columns: int = 256
    noname: str = ""
    samba: int | None = None  # BBS_SAMBATIME: seconds between one writer's posts (None: not published)
    # (timeclose, timecount): at most that many of a thread's last posts by one writer (None: no limit
    # published; an empty or zero value is no limit, as ex0ch reads it)
    consecutive: tuple[int, int] | None = None


def parse_settings(text: str) -> dict[str, str]:
    values = {}
    # `\n` (or CRLF) ends a setting; a title holding `\x1c` or U+2028 stays one setting.
    for line in text.split("\n"):
        key, sep, value = line.partition("=")
        if sep and key.strip():
            values[key.strip()] = value.strip()
    return values


def limits_from(values: dict[str, str]) -> BoardLimits:
    def number(key: str) -> int:
        raw = values.get(key, "")
        return int(raw) if raw.isdigit() else 0

    defaults = BoardLimits()
    line_number = number("BBS_LINE_NUMBER")
    return BoardLimits(
        res_max=number("BBS_THREAD_STOP") or number("BBS_RES_MAX") or defaults.res_max,
        lines=2 * line_number if line_number else defaults.lines,
        chars=number("BBS_MESSAGE_COUNT") or defaults.chars,
        columns=number("BBS_COLUMN_NUMBER") or defaults.columns,
        noname=values.get("BBS_NONAME_NAME", ""),
        samba=int(values["BBS_SAMBATIME"]) if values.get("BBS_SAMBATIME", "").isdigit() else None,
        consecutive=(
            (number("timeclose"), number("timecount"))
            if number("timeclose") and number("timecount")
            else None
        ),
    )


def settings_values(data: bytes, encoding: str) -> dict[str, str] | None:
    """The settings `data` holds when it is a board's settings file: text in the board's charset,
    no markup, and at least one of the board's BBS_ settings; None otherwise."""
    from scraper.answer_checks import strict_text

    text = strict_text(data, encoding)
    if text is None or any(line.lstrip().startswith("<") for line in text.split("\n")):
        return None
    values = parse_settings(text)
    return values if any(key.startswith("BBS_") for key in values) else None


def read_limits(session: Reader | requests.Session, ref: ThreadRef) -> BoardLimits | None:
    """The board's limits, or None when its settings could not be read this time."""
    try:
        response = http.get(session, ref.setting_url, timeout=(5, 15), allow_redirects=True)
    except network_errors():
        return None
    if response.status_code != 200:
        return None
    values = settings_values(response.content, ref.encoding)
    return None if values is None else limits_from(values)


def fetch_limits(session: Reader | requests.Session, ref: ThreadRef) -> BoardLimits:
    """The board's limits, the common defaults where it shows none."""
    return read_limits(session, ref) or BoardLimits()
