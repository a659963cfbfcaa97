"""The game page served beside the bot (`threadgm run` with `[web]`), by the same background waitress
server the local board uses (`board.server.BoardServer` serves any WSGI app).

`GamePage(store, games, host, port).start()` listens (port 0 picks a free one, read back as `.port`)
until `.close()`. It only reads the store the bot writes, through the same `Store` (its reads take
the store's lock, and SQLite's WAL lets them run beside the bot's transactions).
"""

from __future__ import annotations

from board.server import BoardServer
from engine.config import GameConfig
from engine.referee import GameSetup
from store.db import Store
from web.app import GamePageApp
from web.view import Views


class GamePage(BoardServer):
    """The game page of the configured games, listening until `close()`."""

    def __init__(
        self, store: Store, games: list[tuple[GameConfig, GameSetup]], host: str = "127.0.0.1", port: int = 0
    ) -> None:
        super().__init__(GamePageApp(Views(store, games)), host, port)
