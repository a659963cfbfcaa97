"""What a board's owner does outside the web pages: delete a post (あぼーん), stop a thread,
change SETTING.TXT, open a thread. Used by `threadgm board-admin` and by tests that need a deletion.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from board.errors import PostError
from board.posting import ADMIN_ADDRESS, Client, PostingService, WriteForm, Written
from board.storage import BoardStore

ADMIN_CLIENT = Client(ADMIN_ADDRESS, {"NAME": "", "MAIL": ""})


def delete_post(data: Path, board: str, key: str, number: int) -> None:
    BoardStore(data).open(board).delete_post(key, number)


def stop_thread(data: Path, board: str, key: str) -> None:
    store = BoardStore(data)
    target = store.open(board)
    if not target.exists(key):
        raise LookupError(f"{board}/{key} does not exist")
    target.stop(key)


def update_settings(data: Path, board: str, changes: Mapping[str, str]) -> None:
    BoardStore(data).open(board, create=True).update_settings(changes)


def open_thread(data: Path, board: str, title: str, message: str, name: str = "") -> str:
    """Open a thread as the board's owner (no cookie page, no samba); returns its key."""
    store = BoardStore(data)
    store.open(board, create=True)
    outcome = PostingService(store).write(WriteForm(board, None, name, "", message, title), ADMIN_CLIENT)
    if isinstance(outcome, PostError):
        raise ValueError(f"ＥＲＲＯＲ：{outcome.subject} {outcome.plain}")
    assert isinstance(outcome, Written)
    return outcome.key
