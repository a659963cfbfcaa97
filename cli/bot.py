"""`threadgm run`, `threadgm reveal` and `threadgm demo`: the bot's own commands, and the configuration
file checked against a registry of games (one thread, whatever URL names it, holds one game only).
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from board.tripcode import name_and_trip
from bot.process_lock import AlreadyRunning
from bot.runner import Runner
from bot.thread_bot import ThreadBot, thread_identity, thread_url_problem
from engine import config
from engine.config import (
    BotConfig,
    ConfigError,
    GameConfig,
    bot_warning,
    start_problem,
    unplayable_seats,
    untripped_seats,
)
from engine.referee import GameSetup
from engine.ruleset import ImmediateRuleset, Registry
from scraper.fetch import USER_AGENT, make_session
from scraper.refs import ThreadRef
from store.db import Store, private_directory

log = logging.getLogger("threadgm")

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def load_config(path: Path, registry: Registry) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file, checked against `registry` (ConfigError says where and why)."""
    bot, games = config.load_config(path, registry, thread_url_problem)
    seen: dict[tuple[str, str, str], str] = {}
    for game in games:
        same = thread_identity(ThreadRef.from_url(game.thread))  # one thread, one game only
        if same in seen:
            raise ConfigError(
                f"{path}: [[game]] {seen[same]} と {game.id} が同じスレッドです（{game.thread}）"
            )
        seen[same] = game.id
    return bot, games


def bot_trip(path: Path, registry: Registry) -> str:
    """The trip of the bot a configuration runs (verify trusts that trip and no other)."""
    bot, _ = _config(path, registry)
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


def _config(path: Path, registry: Registry) -> tuple[BotConfig, list[GameConfig]]:
    try:
        return load_config(path, registry)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error


def bot_commands(registry: Registry) -> list[click.Command]:
    """The commands that run the bot over the games of `registry`."""
    return [_run(registry), _reveal(registry), _demo(registry)]


def _run(registry: Registry) -> click.Command:
    @click.command("run")
    @click.argument("config", type=_FILE)
    @click.option("-v", "--verbose", is_flag=True)
    def run_command(config: Path, verbose: bool) -> None:
        """ボットを動かす (poll the configured threads and answer them until SIGINT/SIGTERM)."""
        _setup_logging(verbose)
        bot, games = _config(config, registry)
        refused = [problem for game in games if (problem := start_problem(game))]
        if refused:
            raise click.ClickException(f"{config}: " + "\n".join(refused))
        if (warning := bot_warning(bot)) is not None:
            log.warning("%s: %s", config, warning)
        runner = _runner(config, bot, games, registry)
        for thread_bot in runner.bots:
            game = thread_bot.game
            log.info("%s: %s (%s) every %ss", game.id, thread_bot.ref.read_url, game.rules, game.poll_seconds)
            _warn_untripped(thread_bot.setup)
        runner.run_until_signalled()
        log.info("stopped")

    return run_command


def _runner(config: Path, bot: BotConfig, games: list[GameConfig], registry: Registry) -> Runner:
    """The bot of `run`, or the message that says why it cannot start (before it posts anything)."""
    try:
        # the database's folder (var/ by default) exists on a machine that ran a local board only
        private_directory(bot.database.parent)
        runner = Runner(bot, games, registry)
        unplayable = [problem for thread_bot in runner.bots if (problem := _unplayable(thread_bot.setup))]
    except (ConfigError, AlreadyRunning) as error:  # a scenario it cannot read; a second process
        raise click.ClickException(str(error)) from error
    except ValueError as error:  # a scenario the game refuses (RulesetError, a game's ScenarioError)
        raise click.ClickException(f"{config}: {error}") from error
    except OSError as error:
        if error.filename is not None or bot.web is None:  # the database, its folder, its lock
            raise click.ClickException(
                f"{config}: [bot] database = {str(bot.database)!r} を開けません（{error}）"
            ) from error
        raise click.ClickException(  # the game page's port ([web]) is taken
            f"{config}: [web] のポート {bot.web.port} を開けません（{error}）。port で別の番号を指定してください"
        ) from error
    if unplayable:  # before any post: the GM fixes the scenario and starts again, nothing lost
        raise click.ClickException(f"{config}: " + "\n".join(unplayable))
    return runner


def _unplayable(setup: GameSetup) -> str | None:
    """Why a game would start with seats nobody can play (a trip in its scenario no board makes)."""
    ruleset = setup.ruleset
    found = unplayable_seats(ruleset, ruleset.initial_state(setup.scenario))
    if not found:
        return None
    return (
        f"{setup.id}: シナリオにトリップではないものがあるため始めません（そのままでは誰もその席で命令できません）: "
        + "、".join(found)
        + "。threadgm trip '名前#キー' が出した ◆トリップ に書き換えてください"
    )


def _warn_untripped(setup: GameSetup) -> None:
    """Say at start where writers without a trip can act in a game (and a game with no GM)."""
    if not setup.gm_trips:
        log.warning("%s: GMがいません（open_table = true）：GMコマンドは誰も使えません", setup.id)
    ruleset = setup.ruleset
    if isinstance(ruleset, ImmediateRuleset) and not ruleset.steps:
        return  # plain dice: everyone rolls, as on any board
    for seat in untripped_seats(ruleset, ruleset.initial_state(setup.scenario)):
        log.warning("%s: トリップのない人でも動かせます: %s", setup.id, seat)


def _reveal(registry: Registry) -> click.Command:
    @click.command("reveal")
    @click.argument("config", type=_FILE)
    @click.argument("number", type=int)
    @click.option("--game", "game_id", help="The game's id (default: the only game of the configuration).")
    def reveal_command(config: Path, number: int, game_id: str | None) -> None:
        """シークレットダイスを公開する: >>NUMBER の結果と鍵を、ボットの次の巡回で書き込む."""
        bot, games = _config(config, registry)
        chosen = [g for g in games if game_id in (None, g.id)]
        if len(chosen) != 1:
            raise click.ClickException("--game でゲームを選んでください: " + ", ".join(g.id for g in games))
        store = Store(bot.database)
        try:
            session = make_session(bot.user_agent or USER_AGENT)
            queued = ThreadBot(chosen[0], bot, store, session, registry=registry).queue_reveal(number)
        except ValueError as error:  # ConfigError included: a scenario file it cannot read
            raise click.ClickException(str(error)) from error
        finally:
            store.close()
        click.echo("次の巡回で書き込みます:\n" + queued)

    return reveal_command


def _demo(registry: Registry) -> click.Command:
    @click.command("demo")
    @click.option(
        "--host", default="127.0.0.1", show_default=True, help="0.0.0.0 lets others on the LAN join."
    )
    @click.option("--port", default=8380, show_default=True, type=int)
    @click.option(
        "--data",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("var/demo"),
        show_default=True,
    )
    @click.option("--brakes", is_flag=True, help="A board created now gets a real ex0ch's brakes.")
    def demo_command(host: str, port: int, data: Path, brakes: bool) -> None:
        """体験: ローカル掲示板とダイスボットを起動する (the local board and the bot on a demo thread)."""
        # the local board's server (waitress, werkzeug) loads for the demo alone, not for `run`
        from board import demo
        from board.server import BoardServer, make_app
        from board.settings import new_board_settings

        _setup_logging(False)
        private_directory(data)
        app = make_app(data / "board", [demo.BOARD], defaults=new_board_settings(brakes))
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
            try:
                runner = Runner(bot, [game], registry)
            except AlreadyRunning as error:
                raise click.ClickException(str(error)) from error
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

    return demo_command
