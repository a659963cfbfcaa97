"""The game page served by waitress in a daemon thread, beside the bot (`threadgm run` with `[web]`).

`GamePage(store, games, host, port).start()` listens (port 0 picks a free one, read back as `.port`)
until `.close()`. It only reads the store the bot writes, through the same `Store` (its reads take
the store's lock, and SQLite's WAL lets them run beside the bot's transactions).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from waitress import wasyncore
from waitress.server import create_server

from engine.config import GameConfig
from engine.referee import GameSetup
from store.db import Store
from web.app import GamePageApp
from web.view import Views


class GamePage:
    """The game page of the configured games, listening until `close()`."""

    def __init__(
        self, store: Store, games: list[tuple[GameConfig, GameSetup]], host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.app = GamePageApp(Views(store, games))
        self._server = create_server(self.app, host=host, port=port, threads=4, ident="threadgm-web")
        self._thread = threading.Thread(target=self._server.run, name="game-page", daemon=True)

    @property
    def port(self) -> int:
        return self._server.effective_port

    @property
    def url(self) -> str:
        return f"http://{self._server.effective_host}:{self.port}"

    def start(self) -> GamePage:
        self._thread.start()
        return self

    def close(self) -> None:
        # waitress has no stop(): stop listening in its loop, let the workers finish, then close
        # every channel from the loop (the trigger last), which ends run(). Twice does nothing.
        server = self._server
        self._in_loop(lambda: wasyncore.dispatcher.close(server))
        server.task_dispatcher.shutdown()

        def close_all() -> None:
            for channel in [c for c in list(server._map.values()) if c is not server.trigger] + [
                server.trigger
            ]:
                channel.close()

        self._in_loop(close_all)
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _in_loop(self, thunk: Callable[[], object]) -> None:
        trigger = self._server.trigger
        if trigger._closed or not self._thread.is_alive():
            return
        with contextlib.suppress(OSError):
            trigger.pull_trigger(thunk)

    def __enter__(self) -> GamePage:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
