"""`Report` → the text of board posts, split under the board's limits.

On a text board a report is plain lines: anchors as `>>N`, headings as `【…】` (the seed documents'
own convention), table rows as cells separated by a full-width space, a blank line between answers.
A post may hold at most `lines` lines, `chars` characters and `columns` characters a line, counted as
the server counts them (ex0ch measures the stored text: `<` and `>` become `&lt;`/`&gt;` and every
newline `<br>`); a report too long for one post goes out as several, split between sections when it
can be, between lines when it must, inside a line only when a single line is too long.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class PostLimits:
    lines: int = 24  # 2 × BBS_LINE_NUMBER on ex0ch
    chars: int = 2048  # BBS_MESSAGE_COUNT
    columns: int = 256  # BBS_COLUMN_NUMBER
    encoding: str = "cp932"  # the board's charset: what it has no code for goes as a reference


def stored_length(text: str, encoding: str = "cp932") -> int:
    """Length of a line once the server has escaped it (`&` counted as escaped: the safe guess). A
    character the board's charset has no code for goes as its numeric reference (the writer sends
    `&#128512;` for 😀) and counts so, its `&` escaped too: 13 for one emoji."""
    length = len(text) + 3 * (text.count("<") + text.count(">")) + 4 * text.count("&") + 5 * text.count('"')
    if not text.isascii():
        length += sum(_reference_extra(char, encoding) for char in text)
    return length


@functools.cache
def _reference_extra(char: str, encoding: str) -> int:
    """What `char` adds once sent as `&amp;#N;` because `encoding` has no code for it."""
    try:
        char.encode(encoding)
    except UnicodeEncodeError:
        return len(str(ord(char))) + 6
    return 0


def _span(span: Span) -> str:
    if isinstance(span, Anchor):
        return f">>{span.post}" + (f"-{span.last}" if span.last is not None else "")
    if isinstance(span, Label):
        return f"【{span.text}】"
    if isinstance(span, Strong | Text):
        return span.text
    raise TypeError(f"not a span: {span!r}")


def block_lines(block: Block) -> list[str]:
    if isinstance(block, Line):
        return ["".join(_span(span) for span in block.spans)]
    if isinstance(block, Heading):
        return [f"【{block.text}】"]
    if isinstance(block, Table):
        rows = ([block.header] if block.header else []) + list(block.rows)
        return ["　".join(cell for cell in row) for row in rows]
    if isinstance(block, Blank):
        return [""]
    if isinstance(block, Section):
        return [text for inner in block.blocks for text in block_lines(inner)]
    raise TypeError(f"not a block: {block!r}")


def report_chunks(report: Report) -> list[list[str]]:
    """The report as chunks of lines that should stay together: the anchor line with the first
    section, then one chunk per section (loose blocks between sections form chunks of their own)."""
    chunks: list[list[str]] = []
    loose: list[str] = []
    for block in report.blocks:
        if isinstance(block, Section):
            if loose:
                chunks.append(loose)
                loose = []
            chunks.append(block_lines(block))
        else:
            loose.extend(block_lines(block))
    if loose:
        chunks.append(loose)
    if report.reply_to:
        anchors = " ".join(f">>{number}" for number in report.reply_to)
        chunks = [[anchors, *chunks[0]], *chunks[1:]] if chunks else [[anchors]]
    return chunks


def render_body(report: Report) -> str:
    """The whole report as one post body, with no limits applied (the CLI, logs, tests)."""
    return "\n".join(line for chunk in report_chunks(report) for line in chunk)


CONTINUED = "（続き）"


@dataclass(frozen=True)
class _Chunk:
    lines: list[str]
    header: str | None = None  # what a post starting with this chunk's continuation shows first


def render_posts(reports: Sequence[Report], limits: PostLimits = PostLimits()) -> list[str]:
    """Several reports packed into as few post bodies as the limits allow, in order. An answer cut
    by a post boundary continues under `>>N（続き）`, so every part says what it answers."""
    chunks: list[_Chunk] = []
    for index, report in enumerate(reports):
        header = " ".join(f">>{n}" for n in report.reply_to) + CONTINUED if report.reply_to else None
        parts = report_chunks(report)
        for position, lines in enumerate(parts):
            if index and position == 0:
                lines = ["", *lines]  # a blank line between answers
            chunks.append(_Chunk(lines, None if position == 0 else header))
        if parts and header is not None:
            chunks[-len(parts)] = _Chunk(chunks[-len(parts)].lines, header)
    return _pack(chunks, limits)


def _fits(lines: Sequence[str], limits: PostLimits) -> bool:
    if len(lines) > limits.lines:
        return False
    lengths = [stored_length(line, limits.encoding) for line in lines]
    return sum(lengths) + 4 * (len(lines) - 1) <= limits.chars and all(n <= limits.columns for n in lengths)


def fits_post(text: str, limits: PostLimits) -> bool:
    """Whether a post body stays within the board's limits as it stands."""
    return _fits(text.split("\n"), limits)


def _wrap(line: str, limits: PostLimits) -> list[str]:
    pieces, current, length = [], "", 0
    columns = limits.columns
    for char in line:
        size = stored_length(char, limits.encoding)
        if length + size > columns and current:
            pieces.append(current)
            current, length = "", 0
        current += char
        length += size
    return [*pieces, current]


def _pack(chunks: Iterable[_Chunk], limits: PostLimits) -> list[str]:
    posts: list[list[str]] = []
    current: list[str] = []
    for chunk in chunks:
        if _fits(current + chunk.lines, limits):
            current += chunk.lines
            continue
        lines = list(chunk.lines)
        alone = lines[1:] if lines and lines[0] == "" else lines
        if chunk.header and alone and not alone[0].startswith(">>"):
            alone = [chunk.header, *alone]
        if _fits(alone, limits):  # fits a post of its own: start one
            if current:
                posts.append(current)
            current = alone
            continue
        # too big for any post: fill this post, then go on between lines (inside a line if must)
        if not current:
            lines = alone
        for line in lines:
            too_long = stored_length(line, limits.encoding) > limits.columns
            for piece in _wrap(line, limits) if too_long else [line]:
                if not _fits([*current, piece], limits):
                    posts.append(current)
                    current = [chunk.header] if chunk.header else []
                    if piece == "":
                        continue  # no post starts with a blank line
                current.append(piece)
    if current:
        posts.append(current)
    return ["\n".join(post).rstrip("\n") for post in posts if any(post)]
