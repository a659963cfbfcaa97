"""What a board's owner does outside the web pages: make a board, delete a post (あぼーん), stop a
thread, change SETTING.TXT, open a thread. Used by `threadgm board-admin`, `threadgm new` and by tests
that need a deletion. A board these make is for play on one machine unless `brakes` is asked for
(`board.settings.new_board_settings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from board.errors import PostError
from board.posting import ADMIN_ADDRESS, Client, PostingService, WriteForm, Written
from board.settings import new_board_settings
from board.storage import BoardStore

ADMIN_CLIENT = Client(ADMIN_ADDRESS, {"NAME": "", "MAIL": ""})


def _boards(data: Path, brakes: bool = False, samba: int | None = None) -> BoardStore:
    return BoardStore(data, defaults=new_board_settings(brakes, samba))


def new_board(data: Path, board: str, *, brakes: bool = False, samba: int | None = None) -> bool:
    """Make `board` (False: it was there already, and keeps its settings)."""
    existed = (Path(data) / board / "SETTING.TXT").is_file()
    _boards(data, brakes, samba).open(board, create=True)
    return not existed


def delete_post(data: Path, board: str, key: str, number: int) -> None:
    BoardStore(data).open(board).delete_post(key, number)


def stop_thread(data: Path, board: str, key: str) -> None:
    store = BoardStore(data)
    target = store.open(board)
    if not target.exists(key):
        raise LookupError(f"{board}/{key} does not exist")
    target.stop(key)


def update_settings(data: Path, board: str, changes: Mapping[str, str]) -> None:
    _boards(data).open(board, create=True).update_settings(changes)


def open_thread(
    data: Path, board: str, title: str, message: str, name: str = "", *, brakes: bool = False
) -> str:
    """Open a thread as the board's owner (no cookie page, no samba); returns its key."""
    store = _boards(data, brakes)
    store.open(board, create=True)
    outcome = PostingService(store).write(WriteForm(board, None, name, "", message, title), ADMIN_CLIENT)
    if isinstance(outcome, PostError):
        raise ValueError(f"ＥＲＲＯＲ：{outcome.subject} {outcome.plain}")
    assert isinstance(outcome, Written)
    return outcome.key
