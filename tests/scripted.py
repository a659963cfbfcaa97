"""A scripted HTTP server for fault and crash tests: real sockets, answers chosen by the test.

Requests go to the first matching rule (method + path prefix), else to the upstream WSGI app (the
local board), so a test can wrap a real board and break exactly one thing: a 503, a timeout, a cut
dat, a cookie page, a samba error, a request held until the test kills the bot.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from werkzeug.wrappers import Request, Response

from board.server import BoardServer

Handler = Callable[[Request, Callable[[], Response]], Response]


@dataclass
class Rule:
    method: str
    prefix: str
    handler: Handler
    times: int | None  # None: forever
    when: Callable[[Request], bool] | None = None  # only requests this accepts
    used: int = 0


@dataclass
class ScriptedApp:
    upstream: Callable
    rules: list[Rule] = field(default_factory=list)
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def script(
        self,
        method: str,
        prefix: str,
        handler: Handler,
        times: int | None = 1,
        when: Callable[[Request], bool] | None = None,
    ) -> Rule:
        rule = Rule(method.upper(), prefix, handler, times, when)
        with self.lock:
            self.rules.append(rule)
        return rule

    def __call__(self, environ: dict, start_response: Callable):
        request = Request(environ)
        body = request.get_data(cache=True)
        with self.lock:
            self.seen.append((request.method, request.full_path.rstrip("?"), dict(request.headers)))
            rule = next(
                (
                    r
                    for r in self.rules
                    if r.method == request.method
                    and request.path.startswith(r.prefix)
                    and (r.times is None or r.used < r.times)
                    and (r.when is None or r.when(request))
                ),
                None,
            )
            if rule is not None:
                rule.used += 1

        def forward() -> Response:
            environ["wsgi.input"] = io.BytesIO(body)
            return Response.from_app(self.upstream, environ)

        response = rule.handler(request, forward) if rule else forward()
        return response(environ, start_response)

    def count(self, method: str, prefix: str) -> int:
        with self.lock:
            return sum(1 for m, path, _ in self.seen if m == method and path.startswith(prefix))


def scripted_server(upstream: Callable, *, trust_proxy: bool = False) -> tuple[BoardServer, ScriptedApp]:
    app = ScriptedApp(upstream)
    return BoardServer(app, trust_proxy=trust_proxy).start(), app
