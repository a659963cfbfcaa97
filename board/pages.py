"""HTML pages of the local board, made with Jinja2 (autoescaping on).

Dat fields hold HTML-escaped text; every field is unescaped once and escaped again on the way
into a page, so nothing a poster typed can become markup (a `<script>` only ever shows as text).
The pages keep the landmarks clients look for: ex0ch's titles and `2ch_X` comments on bbs.cgi
answers, and ex0ch's `div.post` / `span.number` / `span.name` / `span.dateid` / `div.message`
structure on read.cgi, so one HTML reader handles this board and a real ex0ch alike.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from board.dat import DatPost
from board.errors import SAMBA, PostError

_env = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_ANCHOR = regex.compile(r"&gt;&gt;(\d{1,4})(?:-(\d{1,4}))?")
_TRIP_MARKUP = regex.compile(r"\s?</b>(.*?)<b>\s?")
_CHARSET = {"2ch": "Shift_JIS", "shitaraba": "EUC-JP"}


@dataclass(frozen=True)
class ShownPost:
    number: int
    post: DatPost


def _field(value: str) -> str:
    return html.unescape(value)


def body_html(body: str, thread_url: str) -> Markup:
    """A dat body as safe HTML: `<br>` kept as line breaks, `>>N` as links, the rest escaped text."""
    lines = []
    for piece in regex.split(r"\s?<br>\s?", body.strip()):
        escaped = str(escape(_field(piece)))
        lines.append(
            _ANCHOR.sub(
                lambda m: (
                    f'<a class="reply_link" href="{thread_url}{m[1]}{"-" + m[2] if m[2] else ""}">{m[0]}</a>'
                ),
                escaped,
            )
        )
    return Markup("<br>".join(lines))


def name_html(name: str) -> Markup:
    """A dat name as safe HTML: the name in bold, a trip or host segment (`</b>◆… <b>`) not."""
    parts = _TRIP_MARKUP.split(name)
    out = []
    for index, part in enumerate(parts):
        if part.strip():
            shown = escape(_field(part.strip()))
            out.append(f"<b>{shown}</b>" if index % 2 == 0 else f" {shown} ")
    return Markup("".join(out))


_env.filters["body_html"] = body_html
_env.filters["name_html"] = name_html
_env.filters["field"] = _field


def render(template: str, **values: object) -> str:
    return _env.get_template(template).render(**values)


def boards_page(names: Sequence[str]) -> str:
    return render("boards.html", names=names)


def index_page(board: str, title: str, threads: Sequence[object], now: int, *, dialect: str = "2ch") -> str:
    return render(
        "index.html",
        board=board,
        title=title,
        threads=threads,
        now=now,
        dialect=dialect,
        charset=_CHARSET[dialect],
    )


def read_page(
    *,
    dialect: str,
    board: str,
    key: str,
    title: str,
    board_title: str,
    posts: Sequence[ShownPost],
    total: int,
    base_url: str,
    board_url: str,
    post_action: str,
    now: int,
    writable: bool,
) -> str:
    return render(
        "read.html",
        dialect=dialect,
        board=board,
        key=key,
        title=title,
        board_title=board_title,
        posts=posts,
        total=total,
        base_url=base_url,
        board_url=board_url,
        post_action=post_action,
        now=now,
        writable=writable,
        charset=_CHARSET[dialect],
    )


# The same few pages again and again (one per thread posted to): made once each.
@lru_cache(maxsize=1024)
def written_page(redirect: str) -> str:
    return render("written.html", redirect=redirect)


def confirm_page(fields: Sequence[tuple[str, str]], name: str, mail: str, message: str) -> str:
    return render("confirm.html", fields=fields, name=name, mail=mail, message=message)


def error_page(error: PostError, *, name: str, mail: str, message: str, back: str) -> str:
    if error.code == SAMBA:
        return render("samba.html", error=error)
    return render(
        "error.html",
        error=error,
        message_html=Markup(str(escape(error.message)).replace("&lt;br&gt;", "<br>")),
        name=name,
        mail=mail,
        body=message,
        back=back,
    )


@lru_cache(maxsize=1024)
def jbbs_written_page(redirect: str) -> str:
    return render("jbbs_written.html", redirect=redirect)


def jbbs_error_page(message: str, back: str) -> str:
    return render("jbbs_error.html", message=message, back=back)
