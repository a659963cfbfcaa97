"""Markup-neutral reports: what the engine says happened, never how a board shows it.

The engine builds a `Report` out of blocks (headings, lines of spans, tables, sections that must not
be split); `poster/` renders it for 2ch, したらば or anything else and splits it under each board's
line and byte limits. A span is plain text, an anchor to a post (`>>N` on boards), emphasis, or a
label saying who speaks (the GM voice of an echo, `【GM】` on boards). An `Outgoing` is reports to post
together, as the referee decides them and the poster renders them into the store's `Queue` rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Anchor:
    """A reference to a post of the same thread (`>>12`, or `>>12-15` when `last` is set)."""

    post: int
    last: int | None = None


@dataclass(frozen=True)
class Strong:
    """Emphasis: a result or a name the reader must not miss."""

    text: str


@dataclass(frozen=True)
class Label:
    """Who speaks, at the head of a line: the GM voice of an echo (`【GM】` on boards)."""

    text: str


Span = Text | Anchor | Strong | Label


@dataclass(frozen=True)
class Line:
    spans: tuple[Span, ...]

    @property
    def plain(self) -> str:
        """The line as bare text (anchors as `>>N`, emphasis unmarked): for logs and tests."""
        return "".join(_plain(span) for span in self.spans)


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Table:
    """Rows of cells; `header` names the columns when the board has room to show them."""

    rows: tuple[tuple[str, ...], ...]
    header: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Blank:
    """An empty line between parts."""


@dataclass(frozen=True)
class Section:
    """Blocks that belong together: a poster splits a long report between sections, not inside one
    (unless a single section alone exceeds a post)."""

    blocks: tuple[Block, ...]


Block = Heading | Line | Table | Blank | Section


@dataclass(frozen=True)
class Report:
    """One message of the bot: the blocks, the posts it answers, and a kind for routing and logs."""

    blocks: tuple[Block, ...]
    reply_to: tuple[int, ...] = ()
    kind: str = "result"
    meta: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def plain(self) -> str:
        """The whole report as bare text, one block per line: for logs, tests and the CLI."""
        return "\n".join(_plain_block(block) for block in self.blocks)

    def __add__(self, other: Report) -> Report:
        reply_to = self.reply_to + tuple(n for n in other.reply_to if n not in self.reply_to)
        return Report(self.blocks + other.blocks, reply_to, self.kind, {**self.meta, **other.meta})


def line(*parts: str | Span) -> Line:
    """Build a line from strings and spans: `line("結果：", strong("勝利"), " ", anchor(12))`."""
    return Line(tuple(Text(part) if isinstance(part, str) else part for part in parts))


def anchor(post: int, last: int | None = None) -> Anchor:
    return Anchor(post, last)


def strong(text: str) -> Strong:
    return Strong(text)


def gm_line(*parts: str | Span) -> Line:
    """An echo of a GM command: the GM label, then what was done."""
    return line(Label("GM"), *parts)


def plain_text(parts: Iterable[str | Span]) -> str:
    """Strings and spans as bare text (anchors as `>>N`): for logs."""
    return "".join(part if isinstance(part, str) else _plain(part) for part in parts)


def heading(text: str) -> Heading:
    return Heading(text)


def table(rows: Iterable[Iterable[str]], header: Iterable[str] | None = None) -> Table:
    return Table(tuple(tuple(row) for row in rows), tuple(header) if header is not None else None)


def section(*blocks: Block) -> Section:
    return Section(tuple(blocks))


def report(*blocks: Block, reply_to: Iterable[int] = (), kind: str = "result", **meta: object) -> Report:
    return Report(tuple(blocks), tuple(reply_to), kind, dict(meta))


def _plain(span: Span) -> str:
    if isinstance(span, Anchor):
        return f">>{span.post}" + (f"-{span.last}" if span.last is not None else "")
    if isinstance(span, Label):
        return f"【{span.text}】"
    return span.text


def _plain_block(block: Block) -> str:
    if isinstance(block, Line):
        return block.plain
    if isinstance(block, Heading):
        return f"【{block.text}】"
    if isinstance(block, Table):
        rows = ([block.header] if block.header else []) + list(block.rows)
        return "\n".join(" ".join(row) for row in rows)
    if isinstance(block, Section):
        return "\n".join(_plain_block(inner) for inner in block.blocks)
    return ""


@dataclass(frozen=True)
class Outgoing:
    """Reports to post together: `base` makes the outbox ids of the posts (`base/0`, `base/1`…)."""

    base: str
    kind: str
    reports: tuple[Report, ...]
