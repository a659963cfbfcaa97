"""Tools never claim what they did not do: verify with nothing to compare has an exit code of its own,
roll of a non-command fails, the same thread under two games is a configuration error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import ConfigError
from scheduler import load_config, main
from tests.bot_harness import BOT_NAME


def test_verify_of_a_thread_with_nothing_to_compare_says_so_with_exit_code_3(tmp_path: Path) -> None:
    dat = tmp_path / "1795954933.dat"
    dat.write_text("名無し<>sage<>2026/12/01(火) 20:00:00 ID:abc<> こんにちは <>雑談\n", "cp932")
    result = CliRunner().invoke(main, ["verify", str(dat)])
    assert result.exit_code == 3, result.output
    assert "すべて一致" not in result.output and "確かめられるものがありませんでした" in result.output


@pytest.mark.parametrize(
    ("command", "stdin", "said"),
    [
        ("garbage", None, "ダイスコマンドではありません"),
        ("-", "こんにちは", "この書き込みにダイスコマンドはありません"),
    ],
)
def test_roll_of_a_non_command_fails_and_says_why(command: str, stdin: str | None, said: str) -> None:
    result = CliRunner().invoke(main, ["roll", command], input=stdin)
    assert result.exit_code == 1 and said in result.output


@pytest.mark.parametrize(
    "second",
    [
        "http://127.0.0.1:8380/bbs/read.cgi/local/test/1795954933/",  # the same thread in the other dialect
        "http://127.0.0.1:8380/test/read.cgi/test/1795954933/l50",
    ],
)
def test_the_same_thread_under_two_games_is_refused_naming_both(tmp_path: Path, second: str) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(
        f'[bot]\nname = "{BOT_NAME}"\n\n[[game]]\nid = "a"\nrules = "dice"\n'
        'thread = "http://127.0.0.1:8380/test/read.cgi/test/1795954933/"\n\n'
        f'[[game]]\nid = "b"\nrules = "dice"\nthread = "{second}"\n',
        "utf-8",
    )
    with pytest.raises(ConfigError, match="a と b が同じスレッドです"):
        load_config(config)


def _two_games(tmp_path: Path, first: str, second: str) -> Path:
    config = tmp_path / "bot.toml"
    config.write_text(
        f'[bot]\nname = "{BOT_NAME}"\n\n[[game]]\nid = "a"\nrules = "dice"\nthread = "{first}"\n\n'
        f'[[game]]\nid = "b"\nrules = "dice"\nthread = "{second}"\n',
        "utf-8",
    )
    return config


def test_a_smartphone_link_is_its_pc_thread(tmp_path: Path) -> None:
    config = _two_games(
        tmp_path,
        "https://egg.5ch.net/test/read.cgi/game/1234567890/",
        "https://itest.5ch.net/egg/test/read.cgi/game/1234567890",
    )
    with pytest.raises(ConfigError, match="a と b が同じスレッドです"):
        load_config(config)


def test_boards_in_two_folders_of_one_host_are_two_threads(tmp_path: Path) -> None:
    config = _two_games(
        tmp_path,
        "https://example.com/one/test/read.cgi/game/1234567890/",
        "https://example.com/two/test/read.cgi/game/1234567890/",
    )
    _, games = load_config(config)
    assert [game.thread for game in games] == [
        "https://example.com/one/test/read.cgi/game/1234567890/",
        "https://example.com/two/test/read.cgi/game/1234567890/",
    ]


def test_a_smartphone_link_without_its_server_is_refused_on_load(tmp_path: Path) -> None:
    config = _two_games(
        tmp_path,
        "https://itest.5ch.net/test/read.cgi/game/1234567890/",
        "https://egg.5ch.net/test/read.cgi/game/1234567899/",
    )
    with pytest.raises(ConfigError, match=r"PC版のURL（https://サーバー名\.5ch\.net/"):
        load_config(config)
