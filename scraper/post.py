"""`Post`: one post as threadgm sees it, whichever board and dialect it came from.

Also the field decoding every dialect shares: the name field's markup (`名前 </b>◆TRIP <b>`, caps,
fusianasan hosts) into a display name and a trip, the date field into an aware JST datetime and an
ID, and the body into plain text (`<br>` → newline, HTML unescaped exactly once).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import regex

JST = timezone(timedelta(hours=9), "JST")

_TRIP = regex.compile(r"◆([A-Za-z0-9./+!?]{10,12})")
_TAGS = regex.compile(r"</?b>|<font[^>]*>|</font>", regex.IGNORECASE)
_DATE = regex.compile(
    r"(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})(?:\([^)]*\))?\s+"
    r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.(?P<cs>\d{1,3}))?)?"
)
_BR = regex.compile(r"\s?<br\s*/?>\s?", regex.IGNORECASE)
# Everything str.splitlines() would break a line on. In a body only the board's <br> breaks a line;
# one of these, raw or from a reference (`&#10`, `&#x0a;`, `&NewLine;`, `&#0000010`), is shown by a
# browser as a space on the same line, and a command hidden behind it must not become a line of its own.
_LINE_BREAKS = regex.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class Post:
    number: int
    name: str  # display name, markup removed, HTML unescaped ("" for a deleted post)
    trip: str | None  # the 10/12 characters after ◆, when the server added a trip
    mail: str
    date: datetime | None  # aware (JST); None when the board shows no parsable date
    id: str  # "" when the board shows none
    body: str  # plain text, newlines for <br>
    raw: str  # the line or element exactly as received (decoded)
    title: str = ""  # only post 1 carries the thread title
    deleted: bool = False  # あぼーん: the number stays, the content is gone
    system: bool = False  # a line the server added, such as ex0ch's 1001 line

    @property
    def signature(self) -> str:
        """How the post is signed, for matching the bot or a GM: `name◆trip` or the name."""
        return f"{self.name}◆{self.trip}" if self.trip else self.name


def parse_name(field: str) -> tuple[str, str | None]:
    """(display name, trip) from a stored name field such as `GM </b>◆SyRJNUqZWYMT <b>`.

    Only a ◆ inside server markup (`</b>…<b>`) is a trip: a ◆ typed by a user arrives as ◇, but a
    board that forgot to convert it must still not let `名無し◆偽物` pass for a trip (it reads
    `名無し◇偽物`). Markup typed by a user arrives escaped (`&lt;/b&gt;`) and is text, never markup.
    """
    trip = None
    for segment in regex.findall(r"</b>(.*?)<b>", field):
        if match := _TRIP.search(segment):
            trip = match[1]
    name = html.unescape(_TAGS.sub("", field))
    if trip:
        name = name.replace(f"◆{trip}", "", 1)
    return typed_name(name), trip


def typed_name(name: str) -> str:
    """A display name's text as typed, spaces collapsed: a ◆ left in it (raw, or from `&#9670;`) is one
    a board failed to turn into ◇ — only the board's markup makes a trip — and is shown as ◇, as
    boards do, so that `名無し◆<the GM's trip>` can never read as the GM's signature."""
    return " ".join(name.replace("◆", "◇").split())


def parse_date(field: str) -> tuple[datetime | None, str]:
    """(date, ID) from `2026/11/29(日) 21:22:13 ID:eU4RU1Lw(主)`; the ID keeps marks such as (主)."""
    text, _, rest = field.partition(" ID:")
    poster_id = rest.split(" ", 1)[0]
    match = _DATE.search(text)
    if not match:
        return None, poster_id
    try:
        moment = datetime(
            int(match["y"]),
            int(match["mo"]),
            int(match["d"]),
            int(match["h"]),
            int(match["mi"]),
            int(match["s"] or 0),
            int((match["cs"] or "0").ljust(3, "0")[:3]) * 1000,
            tzinfo=JST,
        )
    except ValueError:
        return None, poster_id
    return moment, poster_id


def decode_line(text: str) -> str:
    """One line of a body as a reader sees it: references resolved once, and anything that would
    break the line (raw, or what a reference decodes to) the space a browser shows."""
    return _LINE_BREAKS.sub(" ", html.unescape(text))


def parse_body(field: str) -> str:
    """A stored body as plain text: 2ch's padding spaces dropped, `<br>` → newline (and nothing
    else), one unescape."""
    if field.startswith(" "):
        field = field[1:]
    if field.endswith(" "):
        field = field[:-1]
    text = _TAGS.sub("", regex.sub(r"<a [^>]*>|</a>", "", field))
    return "\n".join(decode_line(line) for line in _BR.split(text))
