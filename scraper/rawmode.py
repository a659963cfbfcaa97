"""Reading したらば rawmode.cgi lines (`N<>NAME<>MAIL<>DATE<>BODY<>TITLE<>ID`) into `Post`s.

The number is given on each line; a deleted post is simply absent (the number is skipped).
"""

from __future__ import annotations

from scraper.dat import dat_lines
from scraper.post import Post, parse_body, parse_date, parse_name


def parse_rawmode_line(line: str) -> Post | None:
    fields = line.rstrip("\n").split("<>")
    if len(fields) < 5 or not fields[0].strip().isdigit():
        return None
    fields += [""] * (7 - len(fields))
    number, name_field, mail, date_field, body_field, title, poster_id = fields[:7]
    name, trip = parse_name(name_field)
    date, _ = parse_date(date_field)
    return Post(int(number), name, trip, mail, date, poster_id, parse_body(body_field), line, title)


def rawmode_problem(text: str) -> str | None:
    """Why `text` (whole lines) is not a rawmode answer; None when it is one. Every line is a
    numbered post of seven fields, the numbers rising (gaps are deleted posts). An empty text passes
    here: the reader asks from a post it holds, so it knows an empty answer for the lie it is."""
    last = 0
    for line in dat_lines(text):
        head = line.partition("<>")[0]
        if line.count("<>") != 6 or not head.isdigit():
            return f"not a numbered post of 7 fields: {line[:60]!r}"
        if int(head) <= last:
            return f"post {head} after post {last}"
        last = int(head)
    return None


def parse_rawmode(text: str) -> list[Post]:
    return [post for line in dat_lines(text) if (post := parse_rawmode_line(line)) is not None]
