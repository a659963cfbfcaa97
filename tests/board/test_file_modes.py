"""The board's secret (the salt of every poster's ID) is readable by the board's owner alone."""

from __future__ import annotations

import os
from pathlib import Path

from board.storage import BoardStore


def test_the_board_secret_is_for_its_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        board = BoardStore(tmp_path).open("test", create=True)
        assert (board.path / "board.json").stat().st_mode & 0o777 == 0o600
        board.stop("1700000000")  # rewritten: still the owner's alone
        assert (board.path / "board.json").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)
