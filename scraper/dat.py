"""Reading 2ch dat lines (`name<>mail<>date ID<>body<>title`) into `Post`s.

A line is a post; its number is its position. A deleted post keeps its line with the delete name in
every field; ex0ch's 1001 line (`１００１<><>Over 1000 Thread<>…`) is the server's, not a player's.
Malformed lines (fewer fields, undecodable bytes) still yield a post rather than an error, so a
damaged thread never stops the bot.
"""

from __future__ import annotations

from scraper.post import Post, parse_body, parse_date, parse_name


def parse_dat_line(number: int, line: str) -> Post:
    fields = line.rstrip("\n").split("<>")
    fields += [""] * (5 - len(fields))
    name_field, mail, date_field, body_field, title = fields[:5]
    if len({name_field, mail, date_field, body_field}) == 1 and name_field:
        return Post(number, "", None, "", None, "", "", line, deleted=True)
    name, trip = parse_name(name_field)
    date, poster_id = parse_date(date_field)
    system = date is None and date_field.startswith("Over ") and date_field.endswith(" Thread")
    return Post(number, name, trip, mail, date, poster_id, parse_body(body_field), line, title, system=system)


def parse_dat(text: str, first_number: int = 1) -> list[Post]:
    """Complete lines of a dat (or of its new part), numbered from `first_number`."""
    return [parse_dat_line(first_number + index, line) for index, line in enumerate(text.splitlines())]
