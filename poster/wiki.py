"""`Report` → wiki markup, beside the board text of `markup.py`: atwiki and PukiWiki (the wikis
Japanese play-by-post games keep their records on) and Markdown.

Names and posts are hostile input, and every wiki reads markup at the start of a line (`*` heading,
`-` list, `>` quote, `|` table, `#` plugin, ` ` preformatted) and inside it (`''bold''`, `[[link]]`,
`&plugin()`, a `|` ending a cell). Text is therefore written with those characters as numeric
character references, which all three render as the character itself; only the markup this module
writes is markup. PukiWiki joins consecutive lines into one paragraph, so each line ends with its
line-break mark `~`; Markdown ends lines with two spaces (its hard line break) for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import regex

from engine.report import (
    Anchor,
    Blank,
    Block,
    Heading,
    Label,
    Line,
    Report,
    Section,
    Span,
    Strong,
    Table,
    Text,
)

Dialect = Literal["atwiki", "pukiwiki", "markdown"]
DIALECTS: tuple[Dialect, ...] = ("atwiki", "pukiwiki", "markdown")

# Characters that are markup somewhere in a line, for each dialect, and at the start of a line.
_INLINE = {
    "atwiki": "&'[]|<>~",
    "pukiwiki": "&'[]|<>~",
    "markdown": "&*_`[]|<>\\~#!",
}
_LINE_START = {"atwiki": "*-+><|#: /,=", "pukiwiki": "*-+><|#: /,=", "markdown": "#>-+*= "}
_CELL_MARK = regex.compile(r"^(?:[A-Z]+[:(]|[!~])")  # PukiWiki's LEFT:, BGCOLOR(…), ~header; atwiki's !header
_NUMBERED = regex.compile(r"^\d+[.)]")  # a Markdown ordered list


def _reference(char: str) -> str:
    return f"&#{ord(char)};"


def escape(text: str, dialect: Dialect) -> str:
    """Text shown as itself in the dialect (never as markup), on one line."""
    special = _INLINE[dialect]
    flat = text.replace("\r", " ").replace("\n", " ")
    return "".join(_reference(char) if char in special else char for char in flat)


def _guard_start(text: str, dialect: Dialect) -> str:
    """The first character as a reference when it would make the line markup."""
    if text and (text[0] in _LINE_START[dialect] or (dialect == "markdown" and _NUMBERED.match(text))):
        return _reference(text[0]) + text[1:]
    return text


def _cell(text: str, dialect: Dialect) -> str:
    out = escape(text, dialect)
    if _CELL_MARK.match(out):
        out = _reference(out[0]) + out[1:]
    return out or " "


def _span(span: Span, dialect: Dialect) -> str:
    if isinstance(span, Anchor):
        return escape(f">>{span.post}" + (f"-{span.last}" if span.last is not None else ""), dialect)
    if isinstance(span, Label):
        return escape(f"【{span.text}】", dialect)
    if isinstance(span, Strong):
        inner = escape(span.text, dialect)
        if not inner:
            return ""
        return f"**{inner}**" if dialect == "markdown" else f"''{inner}''"
    if isinstance(span, Text):
        return escape(span.text, dialect)
    raise TypeError(f"not a span: {span!r}")


def _text_line(text: str, dialect: Dialect) -> str:
    """A line of markup this module wrote (its start already guarded), with the mark that keeps it
    a line of its own."""
    if not text:
        return ""
    if dialect == "pukiwiki":
        return text + "~"
    if dialect == "markdown":
        return text + "  "
    return text


def heading_line(text: str, level: int, dialect: Dialect) -> str:
    """A heading of `level` (1 is the page's top part): `*`…`***` on the wikis, which have three
    levels — deeper ones are bold lines in the board's own 【…】 — and `#` marks in Markdown."""
    if dialect == "markdown":
        return f"{'#' * min(level + 1, 6)} {escape(text, dialect)}"
    if level > 3:
        return _text_line(f"''{escape(f'【{text}】', dialect)}''", dialect)
    return f"{'*' * level}{_guard_start(escape(text, dialect), dialect)}"


def table_lines(rows: Iterable[Iterable[str]], header: Iterable[str] | None, dialect: Dialect) -> list[str]:
    body = [[_cell(cell, dialect) for cell in row] for row in rows]
    head = [_cell(cell, dialect) for cell in header] if header is not None else None
    if dialect == "markdown":
        width = max([len(head or [])] + [len(row) for row in body] + [1])
        top = (head or []) + [" "] * (width - len(head or []))
        lines = ["| " + " | ".join(top) + " |", "|" + "---|" * width]
        return lines + ["| " + " | ".join(row + [" "] * (width - len(row))) + " |" for row in body]
    lines = []
    if head is not None:
        if dialect == "atwiki":
            lines.append("|" + "|".join(f"!{cell}" for cell in head) + "|")
        else:
            lines.append("|" + "|".join(head) + "|h")
    return lines + ["|" + "|".join(row) + "|" for row in body]


def block_lines(block: Block, dialect: Dialect, level: int = 2) -> list[str]:
    if isinstance(block, Line):
        parts = [_span(span, dialect) for span in block.spans]
        if parts and not isinstance(block.spans[0], Strong):  # a bold span starts with our own marks
            parts[0] = _guard_start(parts[0], dialect)
        return [_text_line("".join(parts), dialect)]
    if isinstance(block, Heading):
        return ["", heading_line(block.text, level, dialect)]
    if isinstance(block, Table):
        return ["", *table_lines(block.rows, block.header, dialect), ""]
    if isinstance(block, Blank):
        return [""]
    if isinstance(block, Section):
        return [text for inner in block.blocks for text in block_lines(inner, dialect, level)]
    raise TypeError(f"not a block: {block!r}")


def render_wiki(report: Report, dialect: Dialect, level: int = 2) -> str:
    """The whole report in the dialect; its headings at `level`."""
    lines: list[str] = []
    if report.reply_to:
        anchors = " ".join(f">>{number}" for number in report.reply_to)
        lines.append(_text_line(_guard_start(escape(anchors, dialect), dialect), dialect))
    for block in report.blocks:
        lines += block_lines(block, dialect, level)
    return tidy(lines)


def tidy(lines: Iterable[str]) -> str:
    """Lines joined with no run of blank lines and none at either end (a blank line ends a table
    or a paragraph on every wiki; two say nothing more)."""
    out: list[str] = []
    for text in lines:
        if text == "" and (not out or out[-1] == ""):
            continue
        out.append(text)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def plain_line(text: str, dialect: Dialect) -> str:
    """A line of plain text (a post's line, say) as one line of the dialect, shown as itself."""
    return _text_line(_guard_start(escape(text, dialect), dialect), dialect)
