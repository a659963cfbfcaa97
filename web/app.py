"""The game page's WSGI application (Werkzeug, Jinja2 with autoescaping): read-only.

    /                         the games
    /games/ID/                one game: period, deadline, senders, picture, standings, reports, keys
    /games/ID/live            the changing part of that page (what the page's script swaps in)
    /games/ID/summary.json    the small JSON the page polls (a mark that moves when anything changes)
    /games/ID/picture.svg     the picture alone (as `threadgm picture` saves it)
    /static/…                 the page's script and style

Only GET and HEAD are routed: any other method is answered 405, and nothing here writes. Every page
carries a Content-Security-Policy that allows scripts from this origin only, so even a name that got
past the escaping could not run as a script.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import BaseConverter, Map, Rule
from werkzeug.utils import safe_join, send_file
from werkzeug.wrappers import Request, Response

from web.view import GameView, Views

HERE = Path(__file__).parent
POLL_SECONDS = 3
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

_env = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


class _GameId(BaseConverter):
    regex = r"[^/]{1,200}"


_URLS = Map(
    [
        Rule("/", endpoint="index", methods=["GET"]),
        Rule("/games/<game:game_id>/", endpoint="game", methods=["GET"]),
        Rule("/games/<game:game_id>/live", endpoint="live", methods=["GET"]),
        Rule("/games/<game:game_id>/summary.json", endpoint="summary", methods=["GET"]),
        Rule("/games/<game:game_id>/picture.svg", endpoint="picture", methods=["GET"]),
        Rule("/static/<name>", endpoint="static", methods=["GET"]),
    ],
    converters={"game": _GameId},
)


def picture_markup(svg: str | None) -> Markup | None:
    """The ruleset's SVG, built by ElementTree (which escaped every text in it), put into the page
    as markup; anything that is not such a document is refused rather than trusted."""
    if svg is None or not svg.startswith("<svg ") or "<script" in svg.lower():
        return None
    return Markup(svg)


class GamePageApp:
    """The WSGI callable over the configured games' views."""

    def __init__(self, views: Views) -> None:
        self.views = views
        self._handlers: dict[str, Callable[..., Response]] = {
            endpoint: getattr(self, f"_{endpoint}")
            for endpoint in {rule.endpoint for rule in _URLS.iter_rules()}
        }

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        request = Request(environ)
        try:
            endpoint, values = _URLS.bind_to_environ(environ).match()
            response = self._handlers[endpoint](request, **values)
        except HTTPException as error:
            response = error.get_response(environ)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response(environ, start_response)

    def _view(self, game_id: str) -> GameView:
        view = self.views.view(game_id)
        if view is None:
            raise NotFound()
        return view

    def _index(self, request: Request) -> Response:
        games = [view for view in (self.views.view(i) for i in self.views.ids()) if view is not None]
        return _html(_env.get_template("index.html").render(games=games))

    def _game(self, request: Request, game_id: str) -> Response:
        view = self._view(game_id)
        page = _env.get_template("game.html").render(
            game=view, picture=picture_markup(view.picture), poll=POLL_SECONDS
        )
        return _html(page)

    def _live(self, request: Request, game_id: str) -> Response:
        view = self._view(game_id)
        return _html(_env.get_template("live.html").render(game=view, picture=picture_markup(view.picture)))

    def _summary(self, request: Request, game_id: str) -> Response:
        return _json(self._view(game_id).summary())

    def _picture(self, request: Request, game_id: str) -> Response:
        view = self._view(game_id)
        if view.picture is None:
            raise NotFound()
        return Response(view.picture, content_type="image/svg+xml; charset=utf-8")

    def _static(self, request: Request, name: str) -> Response:
        # A name too long for the file system, or with a NUL in it, is no file of ours either.
        path = safe_join(str(HERE / "static"), name) if len(name) <= 100 and "\x00" not in name else None
        try:
            found = path is not None and Path(path).is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            raise NotFound()
        return send_file(path, request.environ, conditional=True, max_age=0)


def _html(text: str, status: int = 200) -> Response:
    return Response(text, status=status, content_type="text/html; charset=utf-8")


def _json(data: object) -> Response:
    import json

    return Response(json.dumps(data, ensure_ascii=False), content_type="application/json; charset=utf-8")
