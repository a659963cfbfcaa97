"""The `threadgm` command group over a registry of games: every command of the package, each given the
registry and the concrete parts it runs on (how a report reads on a board, how a thread is read, how a
thread is opened on the local board).

A command's module is imported only when that command runs: `threadgm trip` loads the tripcode and
not the bot, `threadgm roll` the dice and no game, `threadgm help naval` the naval rules alone (the
registry imports a game the first time it is asked for). `threadgm --help` lists the commands from
`COMMANDS` without importing any (tests/cli/test_main.py checks each line against its command).
"""

from __future__ import annotations

from pathlib import Path

import click

from engine.ruleset import Registry

# name → (the part of the command line it belongs to, the first sentence of its help, whose head
# `threadgm --help` shows as click would)
COMMANDS: dict[str, tuple[str, str]] = {
    "adjudicate": (
        "tools",
        "命令を一括処理して結果を表示する (offline GM preview of one period, with the bot's own rules).",
    ),
    "board": ("board", "ローカル掲示板を起動する (serve 2ch- and したらば-compatible boards)."),
    "board-admin": ("board", "ローカル掲示板の管理 (delete posts, stop threads, change settings)."),
    "demo": (
        "bot",
        "体験: ローカル掲示板とダイスボットを起動する (the local board and the bot on a demo thread).",
    ),
    "export": (
        "web",
        "ゲームの記録をWiki記法で書き出す (every period: orders, results, standings — for atwiki, PukiWiki or Markdown).",
    ),
    "help": ("tools", "ゲームのルール（ボットが適用するとおり）を表示する."),
    "import-character": (
        "tools",
        "キャラクターを取り込む: ココフォリアのキャラクターJSONを、スレに貼れる【キャラシート】にして表示する.",
    ),
    "new": ("tools", "新しいゲームの設定とシナリオを書く (a commented config and scenario, ready to run)."),
    "picture": (
        "web",
        "盤面の図をSVGで書き出す (the game page's picture: `threadgm picture naval --config bot.toml > map.svg`).",
    ),
    "reveal": ("bot", "シークレットダイスを公開する: >>NUMBER の結果と鍵を、ボットの次の巡回で書き込む."),
    "roll": (
        "tools",
        "ダイスを振る: 1コマンドの返答を表示する (`-` reads a whole post from standard input).",
    ),
    "run": ("bot", "ボットを動かす (poll the configured threads and answer them until SIGINT/SIGTERM)."),
    "simulate": ("tools", "ゲームを丸ごとシミュレーションする (whole games played by themselves, offline)."),
    "trip": (
        "board",
        "名前欄のトリップを表示する (print the ◆trip of a name field such as '#key' or 'GM#key').",
    ),
    "verify": (
        "tools",
        "出目を検証する: スレの全ての出目を公開済みの鍵で再計算する (a thread URL or a saved dat/rawmode file;"
        " for a game that went on in a next thread, every part: each is checked with what the others published).",
    ),
}


def _open_thread(data: Path, board: str, title: str, first: str, **options: object) -> str:
    from board.admin import open_thread

    return open_thread(data, board, title, first, **options)  # type: ignore[arg-type]


def _load_thread(source: str, key: str | None) -> tuple[list, str]:
    from scraper.sources import load_thread

    return load_thread(source, key)


def _render(report: object) -> str:
    from poster.markup import render_body

    return render_body(report)  # type: ignore[arg-type]


def _bot_trip(path: Path, registry: Registry) -> str:
    from cli.bot import bot_trip

    return bot_trip(path, registry)


def _part(part: str, registry: Registry) -> list[click.Command]:
    """The commands of one part of the command line, its modules imported now."""
    if part == "board":
        from board import cli as board_cli

        return [board_cli.board_command, board_cli.board_admin, board_cli.trip_command]
    if part == "tools":
        from cli.tools import tool_commands

        return tool_commands(registry, _render, _load_thread, _open_thread, lambda p: _bot_trip(p, registry))
    if part == "web":
        from cli.bot import load_config
        from cli.web import web_commands

        return web_commands(registry, lambda path: load_config(path, registry))
    from cli.bot import bot_commands

    return bot_commands(registry)


class _Commands(click.Group):
    """A group whose commands are built (and their modules imported) when one is asked for."""

    def __init__(self, registry: Registry, **attrs: object) -> None:
        super().__init__(**attrs)  # type: ignore[arg-type]
        self.registry = registry
        self._built: dict[str, click.Command] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self._built:
            for command in _part(COMMANDS[cmd_name][0], self.registry):
                self._built.setdefault(command.name or "", command)
        return self._built.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, click.Command(name, help=text).get_short_help_str(limit))
            for name, (_, text) in sorted(COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def build(registry: Registry) -> click.Group:
    """`threadgm` with every command, over the games of `registry`."""

    def main() -> None:
        """threadgm — スレッド進行GMボット (a game-master bot for Japanese text boards)."""

    return _Commands(
        registry,
        name="main",
        callback=main,
        help=main.__doc__,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


__all__ = ["COMMANDS", "build"]
