"""Every directory the bot's commands create is for their owner alone (var/, the game's folder that
holds the configuration with the bot's key, the database's folder), whatever the umask."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from scheduler import main


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_new_makes_var_and_the_games_folder_for_their_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        result = CliRunner().invoke(main, ["new", "guess", "mine", "--gm", "#gm-key-for-test"])
        assert result.exit_code == 0, result.output
    finally:
        os.umask(old)
    assert _mode(tmp_path / "var") == 0o700 and _mode(tmp_path / "var" / "board") == 0o700
    assert _mode(tmp_path / "mine") == 0o700
