"""threadgm's composition root: the command line and the configuration, checked against the
registered games. The bot itself — one game on its thread, the poll loop, the process with its
game clocks — is in `bot/`; the rules of the games live in `engine/rules/`, the referee in
`engine/referee/`.
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from board import cli as board_cli
from board import demo
from board.admin import open_thread
from board.server import BoardServer, make_app
from board.tripcode import name_and_trip
from bot.runner import Runner
from bot.thread_bot import ThreadBot, TickResult, thread_url_problem
from engine import config
from engine.cli import tool_commands
from engine.config import BotConfig, ConfigError, GameConfig
from engine.rules import REGISTRY
from poster.markup import render_body
from scraper.fetch import USER_AGENT, make_session
from scraper.refs import ThreadRef
from scraper.sources import load_thread
from store.db import Store
from web.cli import web_commands

__all__ = ["BotConfig", "GameConfig", "Runner", "ThreadBot", "TickResult", "load_config", "main"]

log = logging.getLogger("threadgm")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """threadgm — スレッド進行GMボット (a game-master bot for Japanese text boards)."""


for _command in (
    board_cli.board_command,
    board_cli.board_admin,
    board_cli.trip_command,
    *tool_commands(
        REGISTRY,
        render_body,
        load_thread,
        open_thread,
        lambda p: _bot_trip(p),
    ),
    *web_commands(REGISTRY, lambda p: load_config(p)),
):
    main.add_command(_command)

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def load_config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file, checked against the registered games (ConfigError says where and why)."""
    bot, games = config.load_config(path, REGISTRY, thread_url_problem)
    seen: dict[tuple[str, str, str], str] = {}
    for game in games:
        ref = ThreadRef.from_url(game.thread)
        # One thread, whatever URL names it (2ch or したらば path, read.cgi or dat): one game only.
        same = (ref.origin, ref.board.rsplit("/", 1)[-1], ref.key)
        if same in seen:
            raise ConfigError(
                f"{path}: [[game]] {seen[same]} と {game.id} が同じスレッドです（{game.thread}）"
            )
        seen[same] = game.id
    return bot, games


# == the bot ========================================================================================


def _bot_trip(path: Path) -> str:
    """The trip of the bot a configuration runs (verify trusts that trip and no other)."""
    try:
        bot, _ = load_config(path)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error
    trip = name_and_trip(bot.name)[1]
    if not trip:
        raise click.ClickException(
            f"{path}: [bot] name にトリップ（#キー）がないため、ボットを見分けられません"
        )
    return trip


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("apscheduler").setLevel(logging.DEBUG if verbose else logging.WARNING)


def _config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    try:
        return load_config(path)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error


@main.command("run")
@click.argument("config", type=_FILE)
@click.option("-v", "--verbose", is_flag=True)
def run_command(config: Path, verbose: bool) -> None:
    """ボットを動かす (poll the configured threads and answer them until SIGINT/SIGTERM)."""
    _setup_logging(verbose)
    bot, games = _config(config)
    try:
        runner = Runner(bot, games)
    except OSError as error:  # the game page's port ([web]) is taken
        port = bot.web.port if bot.web else "?"
        raise click.ClickException(
            f"{config}: [web] のポート {port} を開けません（{error}）。port で別の番号を指定してください"
        ) from error
    for thread_bot in runner.bots:
        game = thread_bot.game
        log.info("%s: %s (%s) every %ss", game.id, thread_bot.ref.read_url, game.rules, game.poll_seconds)
    runner.run_until_signalled()
    log.info("stopped")


@main.command("reveal")
@click.argument("config", type=_FILE)
@click.argument("number", type=int)
@click.option("--game", "game_id", help="The game's id (default: the only game of the configuration).")
def reveal_command(config: Path, number: int, game_id: str | None) -> None:
    """シークレットダイスを公開する: >>NUMBER の結果と鍵を、ボットの次の巡回で書き込む."""
    bot, games = _config(config)
    chosen = [g for g in games if game_id in (None, g.id)]
    if len(chosen) != 1:
        raise click.ClickException("--game でゲームを選んでください: " + ", ".join(g.id for g in games))
    bot.database.parent.mkdir(parents=True, exist_ok=True)
    store = Store(bot.database)
    try:
        queued = ThreadBot(chosen[0], bot, store, make_session(bot.user_agent or USER_AGENT)).queue_reveal(
            number
        )
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()
    click.echo("次の巡回で書き込みます:\n" + queued)


@main.command("demo")
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 lets others on the LAN join.")
@click.option("--port", default=8380, show_default=True, type=int)
@click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=Path("var/demo"), show_default=True
)
def demo_command(host: str, port: int, data: Path) -> None:
    """体験: ローカル掲示板とダイスボットを起動する (the local board and the bot on a demo thread)."""
    _setup_logging(False)
    data.mkdir(parents=True, exist_ok=True)
    app = make_app(data / "board", [demo.BOARD], defaults=demo.SETTINGS)
    try:
        server = BoardServer(app, host, port).start()
    except OSError as error:
        raise click.ClickException(
            f"ポート {port} を開けません（{error}）。--port で別の番号を指定してください"
        ) from error
    origin = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{server.port}"
    bot = BotConfig(name="ダイス係#threadgm-demo", mail="sage", database=data / "threadgm.sqlite")
    try:
        key = demo.demo_thread(data / "board", bot.name)
        game = GameConfig(
            "demo", "dice", f"{origin}/test/read.cgi/demo/{key}/", poll_seconds=1, idle_seconds=1
        )
        runner = Runner(bot, [game])
        click.echo(
            "\n".join(
                [
                    "",
                    "threadgm の体験スレを用意しました。ブラウザで開いて dice2d47= と書き込んでください:",
                    f"  2ch形式:    {origin}/test/read.cgi/demo/{key}/",
                    f"  したらば形式: {origin}/bbs/read.cgi/local/demo/{key}/",
                    "止めるには Ctrl-C。",
                    "",
                ]
            )
        )
        runner.run_until_signalled()
    finally:
        server.close()
    click.echo("停止しました")


if __name__ == "__main__":
    main()
