"""Reading したらば rawmode.cgi lines (`N<>NAME<>MAIL<>DATE<>BODY<>TITLE<>ID`) into `Post`s.

The number is given on each line; a deleted post is simply absent (the number is skipped).
"""

from __future__ import annotations

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


def parse_rawmode(text: str) -> list[Post]:
    return [post for line in text.splitlines() if (post := parse_rawmode_line(line)) is not None]
