"""The board's WSGI application (Werkzeug): every URL of both dialects.

2ch (CP932):   /  /NAME/  /NAME/subject.txt  /NAME/SETTING.TXT  /NAME/dat/KEY.dat
               /test/read.cgi/NAME/KEY/[range]  POST /test/bbs.cgi
したらば (EUC-JP): /local/NAME/subject.txt  /bbs/api/setting.cgi/local/NAME/
               /bbs/rawmode.cgi/local/NAME/KEY/[range]  /bbs/read.cgi/local/NAME/KEY/[range]
               POST /bbs/write.cgi/local/NAME/KEY/  POST /bbs/write.cgi/local/NAME/new/

dat files are sent by Werkzeug's `send_file` with conditional requests on, which gives a static
server's semantics: Range → 206, a Range at or past the end (nothing new, or a shrunk file) → 416,
a missing thread → 404; unchanged with If-Modified-Since → 304, decided before Range as RFC 9110 asks.
That 304, the answer to nearly every poll, is told from one stat before any of Werkzeug's objects is
built (board.not_modified); everything else takes the full way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from urllib.parse import quote

from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.http import http_date, parse_cookie
from werkzeug.routing import BaseConverter, Map, Rule
from werkzeug.utils import send_file
from werkzeug.wrappers import Request, Response

from board import not_modified, pages, shitaraba
from board.errors import PostError
from board.forms import FormTooLarge, read_form
from board.posting import Client, NeedsConfirmation, PostingService, WriteForm, Written
from board.ranges import PostRange
from board.storage import Board, BoardNotFound, BoardStore, encode

SJIS_HTML = "text/html; charset=Shift_JIS"
SJIS_TEXT = "text/plain; charset=Shift_JIS"
EUC_HTML = "text/html; charset=EUC-JP"
EUC_TEXT = "text/plain; charset=EUC-JP"
COOKIE_AGE = 30 * 24 * 3600


class _BoardName(BaseConverter):
    regex = r"[A-Za-z0-9_]{1,32}"


class _ThreadKey(BaseConverter):
    regex = r"[0-9]{9,12}"


class _Option(BaseConverter):
    regex = r"[0-9ln\-]{0,12}"


_URLS = Map(
    [
        Rule("/", endpoint="boards"),
        Rule("/<board:name>/", endpoint="index"),
        Rule("/<board:name>/subject.txt", endpoint="subject"),
        Rule("/<board:name>/SETTING.TXT", endpoint="setting"),
        Rule("/<board:name>/dat/<key:key>.dat", endpoint="dat"),
        Rule("/test/read.cgi/<board:name>/<key:key>/", endpoint="read", defaults={"option": ""}),
        Rule("/test/read.cgi/<board:name>/<key:key>/<option:option>", endpoint="read"),
        Rule("/test/bbs.cgi", endpoint="bbs_cgi", methods=["POST"]),
        Rule("/local/<board:name>/", endpoint="jbbs_index"),
        Rule("/local/<board:name>/subject.txt", endpoint="jbbs_subject"),
        Rule("/bbs/api/setting.cgi/local/<board:name>/", endpoint="jbbs_setting"),
        Rule("/bbs/rawmode.cgi/local/<board:name>/<key:key>/", endpoint="rawmode", defaults={"option": ""}),
        Rule("/bbs/rawmode.cgi/local/<board:name>/<key:key>/<option:option>", endpoint="rawmode"),
        Rule("/bbs/read.cgi/local/<board:name>/<key:key>/", endpoint="jbbs_read", defaults={"option": ""}),
        Rule("/bbs/read.cgi/local/<board:name>/<key:key>/<option:option>", endpoint="jbbs_read"),
        Rule("/bbs/write.cgi/local/<board:name>/new/", endpoint="jbbs_write", methods=["POST"]),
        Rule("/bbs/write.cgi/local/<board:name>/<key:key>/", endpoint="jbbs_write", methods=["POST"]),
    ],
    converters={"board": _BoardName, "key": _ThreadKey, "option": _Option},
    strict_slashes=False,
)


class BoardApp:
    """The WSGI callable. `boards` are the names served (created on start if missing)."""

    def __init__(
        self, store: BoardStore, boards: Iterable[str], posting: PostingService | None = None
    ) -> None:
        self.store = store
        self.boards = [store.open(name, create=True).name for name in boards]
        self.posting = posting or PostingService(store)
        self._not_modified = not_modified.NotModified({name: store.open(name).path for name in self.boards})
        self._handlers: dict[str, Callable[..., Response | _Written]] = {
            endpoint: getattr(self, f"_{endpoint}")
            for endpoint in {rule.endpoint for rule in _URLS.iter_rules()}
        }

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self._not_modified.applies(environ):
            start_response(not_modified.STATUS, list(not_modified.HEADERS))
            return []
        try:
            if environ.get("PATH_INFO") == "/test/bbs.cgi" and environ.get("REQUEST_METHOD") == "POST":
                # Every post comes to this one URL: matched here as the router matches it, and
                # answered from the environ, without the router's adapter or a Request.
                response = self._post_2ch(environ)
            else:
                endpoint, values = _URLS.bind_to_environ(environ).match()
                response = self._handlers[endpoint](Request(environ), **values)
        except BoardNotFound:
            response = _not_found()
        except HTTPException as error:
            response = error.get_response(environ)
        return response(environ, start_response)

    def answers_from_one_stat(self, environ: Mapping[str, object]) -> bool:
        """The request is an idle poll this app answers 304 from one stat (the server may serve it
        without a worker thread)."""
        return self._not_modified.applies(environ)

    def _board(self, name: str) -> Board:
        if name not in self.boards:
            raise BoardNotFound(name)
        return self.store.open(name)

    # -- 2ch ---------------------------------------------------------------------------------

    def _boards(self, request: Request) -> Response:
        return _html(pages.boards_page(self.boards))

    def _index(self, request: Request, name: str) -> Response:
        board = self._board(name)
        title = board.settings.get("BBS_TITLE", name)
        return _html(pages.index_page(name, title, board.threads(), int(time.time())))

    def _subject(self, request: Request, name: str) -> Response:
        return self._static(request, self._board(name).path / "subject.txt", SJIS_TEXT)

    def _setting(self, request: Request, name: str) -> Response:
        return self._static(request, self._board(name).path / "SETTING.TXT", SJIS_TEXT)

    def _dat(self, request: Request, name: str, key: str) -> Response:
        return self._static(request, self._board(name).dat_path(key), SJIS_TEXT)

    def _read(self, request: Request, name: str, key: str, option: str) -> Response:
        return self._read_page(request, name, key, option, dialect="2ch")

    def _bbs_cgi(self, request: Request) -> Response | _Written:
        return self._post_2ch(request.environ)

    def _post_2ch(self, environ: dict) -> Response | _Written:
        try:
            fields = read_form(environ, "cp932")
        except FormTooLarge:
            return _html(pages.error_page(PostError(999), name="", mail="", message="", back="/"), status=413)
        except ValueError:
            fields = {}
        key = fields.get("key") or None
        form = WriteForm(
            board=fields.get("bbs", ""),
            key=key,
            name=fields.get("FROM", ""),
            mail=fields.get("mail", ""),
            message=fields.get("MESSAGE", ""),
            subject=fields.get("subject", ""),
        )
        client = Client(
            environ.get("REMOTE_ADDR") or "", _cookies(environ.get("HTTP_COOKIE")), confirm_cookies=True
        )
        outcome = self.posting.write(form, client) if form.board in self.boards else PostError(999)
        if isinstance(outcome, Written):
            return _Written(_written_page(outcome.board, outcome.key), _remembered(form))
        if isinstance(outcome, NeedsConfirmation):
            hidden = [("subject", form.subject)] if key is None else []
            hidden += [("FROM", form.name), ("mail", form.mail), ("MESSAGE", form.message)]
            hidden += [("bbs", form.board), ("time", fields.get("time", ""))]
            hidden += [("key", key)] if key is not None else []
            response = _html(pages.confirm_page(hidden, form.name, form.mail, form.message))
            for cookie in ("NAME", "MAIL", "securitykey", "countsession"):
                response.set_cookie(cookie, '""', max_age=COOKIE_AGE, path="/")
            return response
        back = f"/test/read.cgi/{form.board}/{key}/l10#bottom" if key else f"/{form.board}/"
        page = pages.error_page(outcome, name=form.name, mail=form.mail, message=form.message, back=back)
        return _html(page)

    # -- したらば ------------------------------------------------------------------------------

    def _jbbs_index(self, request: Request, name: str) -> Response:
        board = self._board(name)
        title = board.settings.get("BBS_TITLE", name)
        return _euc_html(
            pages.index_page(name, title, board.threads(), int(time.time()), dialect="shitaraba")
        )

    def _jbbs_subject(self, request: Request, name: str) -> Response:
        board = self._board(name)
        return _text(
            shitaraba.encode(shitaraba.subject_lines(board.threads(), board.settings.res_max)), EUC_TEXT
        )

    def _jbbs_setting(self, request: Request, name: str) -> Response:
        board = self._board(name)
        top = f"{request.host_url}local/{name}/"
        return _text(shitaraba.encode(shitaraba.setting_lines(name, board.settings, top)), EUC_TEXT)

    def _rawmode(self, request: Request, name: str, key: str, option: str) -> Response:
        board = self._board(name)
        wanted = PostRange.parse(option)
        if wanted is None:
            return _not_found()
        posts = board.posts(key)
        numbers = replace(wanted, with_first_post=False).select(len(posts))
        return _text(shitaraba.encode(shitaraba.raw_lines(posts, numbers, board.settings)), EUC_TEXT)

    def _jbbs_read(self, request: Request, name: str, key: str, option: str) -> Response:
        return self._read_page(request, name, key, option, dialect="shitaraba")

    def _jbbs_write(self, request: Request, name: str, key: str | None = None) -> Response:
        self._board(name)
        back = f"/bbs/read.cgi/local/{name}/{key}/l50" if key else f"/local/{name}/"
        try:
            fields = read_form(request.environ, shitaraba.ENCODING)
        except FormTooLarge:
            return _euc_html(pages.jbbs_error_page(PostError(999).plain, back), status=413)
        except ValueError:
            fields = {}
        form = WriteForm(
            board=name,
            key=key,
            name=fields.get("NAME", ""),
            mail=fields.get("MAIL", ""),
            message=fields.get("MESSAGE", ""),
            subject=fields.get("SUBJECT", ""),
        )
        outcome = self.posting.write(form, Client(request.remote_addr or "", confirm_cookies=False))
        if isinstance(outcome, Written):
            return _euc_html(pages.jbbs_written_page(f"/bbs/read.cgi/local/{name}/{outcome.key}/l50#bottom"))
        assert isinstance(outcome, PostError)  # したらば never asks for a cookie confirmation
        return _euc_html(pages.jbbs_error_page(shitaraba.error_text(outcome), back), status=403)

    # -- shared ------------------------------------------------------------------------------

    def _read_page(self, request: Request, name: str, key: str, option: str, *, dialect: str) -> Response:
        board = self._board(name)
        wanted = PostRange.parse(option)
        if wanted is None:
            return _not_found()
        posts = board.posts(key)
        settings = board.settings
        if dialect == "2ch":
            shown = [pages.ShownPost(n, posts[n - 1]) for n in wanted.select(len(posts))]
            base, board_url, action = f"/test/read.cgi/{name}/{key}/", f"/{name}/", "/test/bbs.cgi"
        else:
            delete_name = settings.get("BBS_DELETE_NAME", "あぼーん")
            shown = [
                pages.ShownPost(n, posts[n - 1])
                for n in wanted.select(len(posts))
                if shitaraba.is_post(n, posts[n - 1], delete_name, settings.res_max)
            ]
            base, board_url = f"/bbs/read.cgi/local/{name}/{key}/", f"/local/{name}/"
            action = f"/bbs/write.cgi/local/{name}/{key}/"
        writable = not board.is_stopped(key) and len(posts) < settings.res_max
        page = pages.read_page(
            dialect=dialect,
            board=name,
            key=key,
            title=posts[0].title if posts else key,
            board_title=settings.get("BBS_TITLE", name),
            posts=shown,
            total=len(posts),
            base_url=base,
            board_url=board_url,
            post_action=action,
            now=int(time.time()),
            writable=writable,
        )
        return _html(page) if dialect == "2ch" else _euc_html(page)

    @staticmethod
    def _static(request: Request, path: Path, mimetype: str) -> Response:
        if not path.is_file():
            raise NotFound()
        modified = datetime.fromtimestamp(int(path.stat().st_mtime), UTC)
        since = request.if_modified_since
        if since is not None and modified <= since and "If-None-Match" not in request.headers:
            # RFC 9110 §13.2.2: If-Modified-Since is decided before Range, so an idle poll costs
            # headers only. (Apache and Werkzeug answer 206 with the last byte here; clients
            # must take both as "nothing new".)
            return Response(
                status=304, headers={"Last-Modified": http_date(modified), "Accept-Ranges": "bytes"}
            )
        response = send_file(path, request.environ, mimetype="text/plain", conditional=True, etag=True)
        response.headers["Content-Type"] = mimetype  # send_file would add its own charset=utf-8
        response.headers["Accept-Ranges"] = "bytes"
        return response


def _html(page: str, status: int = 200) -> Response:
    return Response(encode(page), status=status, content_type=SJIS_HTML)


def _euc_html(page: str, status: int = 200) -> Response:
    return Response(shitaraba.encode(page), status=status, content_type=EUC_HTML)


def _text(data: bytes, content_type: str) -> Response:
    return Response(data, content_type=content_type)


def _not_found() -> Response:
    return Response(b"404 Not Found", status=404, content_type="text/plain")


@lru_cache(maxsize=256)
def _cookies(header: str | None) -> Mapping[str, str]:
    """The request's cookies (which came is all a post asks of them). A client sends the same
    header with every post: the last ones read are kept."""
    return MappingProxyType(parse_cookie(header, cls=dict))


def _remembered(form: WriteForm) -> tuple[str, str]:
    """Browsers keep the last name and mail; the board sets them as ex0ch does."""
    return _remembering(form.name, form.mail, int(time.time()))


@lru_cache(maxsize=256)  # a poster's name and mail in one second: the same two headers
def _remembering(name: str, mail: str, now: int) -> tuple[str, str]:
    # Written as Werkzeug's dump_cookie writes them: a percent-quoted value needs no quoting of its own.
    expires = http_date(now + COOKIE_AGE)
    return (
        f"NAME={quote(name)}; Expires={expires}; Max-Age={COOKIE_AGE}; Path=/",
        f"MAIL={quote(mail)}; Expires={expires}; Max-Age={COOKIE_AGE}; Path=/",
    )


@lru_cache(maxsize=1024)
def _written_page(board: str, key: str) -> bytes:
    return encode(pages.written_page(f"/test/read.cgi/{board}/{key}/l10#bottom"))


class _Written:
    """The answer to a post (書きこみました with the name and mail cookies) as a WSGI app, sent with
    the headers Werkzeug's Response would give it — Content-Type, Content-Length, each Set-Cookie —
    without building one: it is the answer to nearly every post."""

    __slots__ = ("_body", "_headers")

    def __init__(self, body: bytes, cookies: Iterable[str]) -> None:
        self._body = body
        self._headers = [("Content-Type", SJIS_HTML), ("Content-Length", str(len(body)))]
        self._headers += [("Set-Cookie", cookie) for cookie in cookies]

    def __call__(self, environ: dict, start_response: Callable) -> list[bytes]:
        start_response("200 OK", self._headers)
        return [self._body]
