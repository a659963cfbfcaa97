"""Serving the board over HTTP with waitress (a production-grade pure-Python WSGI server).

`BoardServer` runs in a background thread for the demo and for end-to-end tests (port 0 picks a
free port); `serve` blocks, for `threadgm board`. Behind a reverse proxy on a LAN, `trust_proxy`
makes waitress take the client address from X-Forwarded-For, so IDs and samba see real clients.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path

from waitress.server import create_server

from board.app import BoardApp
from board.posting import PostingService
from board.storage import BoardStore


def make_app(
    data: Path,
    boards: Iterable[str],
    *,
    defaults: Mapping[str, str] | None = None,
    clock: Callable[[], datetime] | None = None,
) -> BoardApp:
    """The board application; `clock` (JST datetimes) stamps posts, for tests that move time."""
    store = BoardStore(Path(data), defaults=defaults)
    posting = PostingService(store, clock=clock) if clock is not None else PostingService(store)
    return BoardApp(store, boards, posting)


def _proxy_options(trust_proxy: bool) -> dict[str, object]:
    if not trust_proxy:
        return {}
    return {
        "trusted_proxy": "*",
        "trusted_proxy_headers": {"x-forwarded-for"},
        "clear_untrusted_proxy_headers": True,
    }


class BoardServer:
    """A board (or any WSGI app) listening in a daemon thread until `close()`."""

    def __init__(
        self, app: Callable, host: str = "127.0.0.1", port: int = 0, *, trust_proxy: bool = False
    ) -> None:
        self.app = app
        self._server = create_server(
            app, host=host, port=port, threads=8, ident="threadgm-board", **_proxy_options(trust_proxy)
        )
        self._thread = threading.Thread(target=self._server.run, name="board-server", daemon=True)

    @property
    def port(self) -> int:
        return self._server.effective_port

    @property
    def url(self) -> str:
        return f"http://{self._server.effective_host}:{self.port}"

    def start(self) -> BoardServer:
        self._thread.start()
        return self

    def close(self) -> None:
        # waitress has no stop(): channels may only be closed from its own loop thread, so the
        # closing is handed to the loop through its trigger; an empty map then ends run().
        def close_all() -> None:
            for channel in list(self._server._map.values()):
                channel.close()

        self._server.trigger.pull_trigger(close_all)
        self._thread.join(timeout=5)
        self._server.task_dispatcher.shutdown()

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(app: BoardApp, host: str, port: int, *, trust_proxy: bool = False) -> None:
    create_server(
        app, host=host, port=port, threads=8, ident="threadgm-board", **_proxy_options(trust_proxy)
    ).run()
