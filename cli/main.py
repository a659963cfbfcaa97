"""The `threadgm` command group over a registry of games: every command of the package, each given the
registry and the concrete parts it runs on (how a report reads on a board, how a thread is read, how a
thread is opened on the local board)."""

from __future__ import annotations

from pathlib import Path

import click

from board import cli as board_cli
from board.admin import open_thread
from cli.bot import bot_commands, bot_trip, load_config
from cli.tools import tool_commands
from cli.web import web_commands
from engine.ruleset import Registry
from poster.markup import render_body
from scraper.sources import load_thread


def build(registry: Registry) -> click.Group:
    """`threadgm` with every command, over the games of `registry`."""

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    def main() -> None:
        """threadgm — スレッド進行GMボット (a game-master bot for Japanese text boards)."""

    def configured(path: Path):
        return load_config(path, registry)

    for command in (
        board_cli.board_command,
        board_cli.board_admin,
        board_cli.trip_command,
        *tool_commands(registry, render_body, load_thread, open_thread, lambda p: bot_trip(p, registry)),
        *web_commands(registry, configured),
        *bot_commands(registry),
    ):
        main.add_command(command)
    return main
