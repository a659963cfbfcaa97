"""The dat line, as the server writes it: `name<>mail<>date ID<>body<>title`.

One post per `\n`-terminated line, the title only on line 1; a deleted post keeps its line
(あぼーん in every field) so numbering never moves; after the last allowed post the server appends
the 1001 line (ex0ch's default text with the limit in full-width digits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

_FULLWIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")


@dataclass(frozen=True)
class DatPost:
    name: str
    mail: str
    date_id: str
    body: str
    title: str = ""

    def line(self) -> str:
        return f"{self.name}<>{self.mail}<>{self.date_id}<>{self.body}<>{self.title}\n"

    @property
    def date(self) -> str:
        return self.date_id.split(" ID:", 1)[0]

    @property
    def id(self) -> str:
        """The ID without the `ID:` prefix and without the starter's `(主)` mark ('' when none)."""
        _, sep, rest = self.date_id.partition(" ID:")
        return rest.split(" ", 1)[0].removesuffix("(主)") if sep else ""


def parse_line(line: str) -> DatPost:
    """A stored line back into fields; a damaged line keeps what it has rather than failing."""
    fields = line.rstrip("\n").split("<>")
    fields += [""] * (5 - len(fields))
    return DatPost(*fields[:4], title=fields[4])


def abone(delete_name: str) -> DatPost:
    return DatPost(delete_name, delete_name, delete_name, delete_name, delete_name)


def over_limit(res_max: int) -> DatPost:
    """ex0ch's 1001 line, numbered one past the limit."""
    full = str(res_max).translate(_FULLWIDTH_DIGITS)
    return DatPost(
        str(res_max + 1).translate(_FULLWIDTH_DIGITS),
        "",
        f"Over {res_max} Thread",
        f"このスレッドは{full}を超えました。<br>もう書けないので、新しいスレッドを立ててくださいです。。。",
    )


def format_date(moment: datetime, weekdays: Sequence[str]) -> str:
    """`2026/11/29(日) 21:22:13`: weekday names come from the board's BBS_YMD_WEEKS (Sunday first)."""
    weekday = weekdays[(moment.weekday() + 1) % 7]
    if "%" in weekday or "\0" in weekday:  # a directive (or a NUL, where it stops) as strftime reads it
        return moment.strftime(f"%Y/%m/%d({weekday}) %H:%M:%S")
    # What that strftime writes (glibc's %Y has no padding), without its locale round trip per post
    # (7 µs here with a non-ASCII weekday); %-formatting takes a quarter of what f-string specs take.
    m = moment
    return "%d/%02d/%02d(%s) %02d:%02d:%02d" % (m.year, m.month, m.day, weekday, m.hour, m.minute, m.second)  # noqa: UP031
