"""Reading 2ch dat lines (`name<>mail<>date ID<>body<>title`) into `Post`s.

A line is a post; its number is its position. A deleted post keeps its line with the delete name in
every field; ex0ch's 1001 line (`１００１<><>Over 1000 Thread<>…`) is the server's, not a player's.
Malformed lines (fewer or more fields, undecodable bytes) still yield a post rather than an error, so
a damaged thread never stops the bot (`scraper.fetch` takes them once the board shows them twice).
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


def dat_lines(text: str) -> list[str]:
    """The lines of a dat, a rawmode answer or subject.txt: `\n` ends a line and nothing else does
    (str.splitlines also breaks on `\x0b`, `\x1c`, `\x85`, U+2028…, and one such character in a post
    would shift the number of every post after it)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def dat_problem(text: str, *, full: bool, lines: bool = True) -> str | None:
    """Why `text` (whole lines) is not a dat, or not all of one when `full`; None when it is one.

    Every dat line has five fields — a deleted post and the 1001 line too — and a whole dat starts
    with the one line that carries the title: a maintenance page, a captive portal or an empty 200
    is none of that, and taken as the dat it would be read as posts that are not there. `lines`
    False: only that start is asked (a dat the board holds damaged still starts so).
    """
    all_lines = dat_lines(text)
    if full and not all_lines:
        return "no line at all"
    for number, line in enumerate(all_lines if lines else all_lines[:1], start=1):
        if line.count("<>") != 4:
            return f"line {number} has {line.count('<>') + 1} fields, not 5: {line[:60]!r}"
    first = all_lines[0].split("<>") if full else []
    if full and not first[4].strip() and not (first[0] and len(set(first[:4])) == 1):
        return "line 1 carries no thread title"  # (a deleted post 1 may have lost it: 5ch's あぼーん)
    return None


def parse_dat(text: str, first_number: int = 1) -> list[Post]:
    """Complete lines of a dat (or of its new part), numbered from `first_number`."""
    return [parse_dat_line(first_number + index, line) for index, line in enumerate(dat_lines(text))]
