"""`threadgm new`: a new table — its configuration and scenario, every option with its meaning, a
thread opened on the local board (or a real board's thread checked), its own database — and what the
GM types next.
"""

from __future__ import annotations

import secrets
import sys
import tomllib
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import click

from engine.ruleset import Registry

OpenThread = Callable[..., str]  # (board data, board, title, first post, *, brakes) → the new key


def new_command(registry: Registry, open_thread: OpenThread, games: click.ParamType) -> click.Command:
    """`threadgm new GAME [DIR]`: a configuration and a scenario that run as written; with `--config`,
    the game is added to a configuration (one bot, one database, one process for all its games).
    `games` is the command line's choice of the registry's games."""

    @click.command("new")
    @click.argument("game", type=games)
    @click.argument("directory", type=click.Path(file_okay=False, path_type=Path), required=False)
    @click.option("--thread", help="The thread to play in (default: a new thread on the local board).")
    @click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Add the game to this configuration (written if missing), its scenario beside it.",
    )
    @click.option("--id", "game_id", help="The game's id (default: the game's name, numbered if taken).")
    @click.option(
        "--data",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("var/board"),
        show_default=True,
        help="The local board's data, where the new thread is opened.",
    )
    @click.option("--board", "board_name", default="demo", show_default=True, help="The local board's board.")
    @click.option(
        "--origin", default="http://127.0.0.1:8380", show_default=True, help="Where the board is served."
    )
    @click.option("--brakes", is_flag=True, help="A local board created now gets a real ex0ch's brakes.")
    @click.option(
        "--gm",
        "gm_key",
        help="The GM: '#key' (or 'name#key', or ◆TRIP) whose trip goes in gm_trips (asked when omitted).",
    )
    def new_command(
        game: str,
        directory: Path | None,
        thread: str | None,
        config_file: Path | None,
        game_id: str | None,
        data: Path,
        board_name: str,
        origin: str,
        brakes: bool,
        gm_key: str | None,
    ) -> None:
        """新しいゲームの設定とシナリオを書く (a commented config and scenario, ready to run)."""
        from engine.config import config_template, game_template
        from engine.keys import JST
        from store.db import private_directory

        ruleset = registry.get(game)
        if gm_key is None and _interactive():
            gm_key = click.prompt(
                "GMのキー（'#キー'。空のままなら GM なし：gm_trips を書くまでゲームは始まりません）",
                default="",
                show_default=False,
            )
        gm_trips = _gm_trips(gm_key or "")
        if config_file is not None and directory is not None:
            raise click.ClickException(
                "フォルダと --config は一緒に指定できません（--config のファイルの隣に書きます）"
            )
        config = config_file or (directory or Path(game)) / "threadgm.toml"
        adding = config_file is not None and config.exists()
        game_id = game_id or _free_id(game, _game_ids(config) if adding else set())
        if adding and game_id in _game_ids(config):
            raise click.ClickException(
                f"{config}: id = {game_id!r} のゲームはもうあります（--id で別の名前に）"
            )
        template = ruleset.template()
        scenario = config.parent / (f"scenario-{game_id}.toml" if config_file else "scenario.toml")
        taken = [path for path in (None if adding else config, scenario if template else None) if path]
        taken = [path for path in taken if path.exists()]
        if taken:
            raise click.ClickException(f"{taken[0]} はもうあります（別のフォルダを指定してください）")
        on_local_board = thread is None
        if thread is not None:
            thread = _thread_url(thread)
        if thread is None:
            private_directory(data)  # var/: the bot's database will sit beside the board's data
            first = f"{ruleset.NAME}のスレッドです。ボットが開始を書き込みます（書き方は「ヘルプ」）"
            key = open_thread(data, board_name, f"{ruleset.NAME} Part1", first, brakes=brakes)
            thread = f"{origin.rstrip('/')}/test/read.cgi/{board_name}/{key}/"
        private_directory(config.parent)  # the configuration holds the bot's key
        if template is not None:
            scenario.write_text(template, encoding="utf-8")
        soon = datetime.now(JST).replace(second=0, microsecond=0) + timedelta(minutes=10)
        options = {
            "scenario": scenario.name if template else None,
            "clocked": not ruleset.immediate,
            "anchor": f"{soon:%Y-%m-%d %H:%M}",
            "gm_trips": gm_trips,
        }
        if adding:  # appended: the GM's own lines and comments stay as they are
            _append(config, game_template(game_id, game, thread, **options))
        else:
            bot_name = f"ダイス係#{secrets.token_urlsafe(12)}"  # this install's own key: a fresh secret
            database = _free_database(config)
            config.write_text(
                config_template(game_id, game, thread, bot_name=bot_name, database=database, **options),
                "utf-8",
            )
        what = f"{config} に {game_id} を足しました" if adding else f"書きました: {config}"
        click.echo(what + (f"、{scenario}" if template else ""))
        _say_next(thread, gm_trips, _next_steps(config, on_local_board, origin, data, board_name))

    return new_command


def _free_database(config: Path) -> str:
    """A database of the new table's own, named after its folder: another table's database would hold
    that table's game under the same id, and the bot would play it on in the new thread (no opening,
    the other game's periods and scores)."""
    stem = config.resolve().parent.name or "threadgm"
    for number in range(1, 1000):
        name = f"var/{stem}{'' if number == 1 else f'-{number}'}.sqlite"
        if not Path(name).exists():
            return name
    raise click.ClickException(f"var/{stem}.sqlite から var/{stem}-999.sqlite まで使われています")


def _say_next(thread: str, gm_trips: tuple[str, ...], steps: str) -> None:
    click.echo(f"スレッド: {thread}")
    if gm_trips:
        click.echo(f"GM: ◆{gm_trips[0]}")
    else:
        click.echo(
            "GMのトリップがありません: gm_trips に書くまで（または open_table = true）ゲームは始まりません"
        )
    click.echo(f"次に: {steps}")


def _thread_url(url: str) -> str:
    """The thread `--thread` names, as its canonical read URL (`l50`, `#…` and the like dropped);
    a URL that names no thread is refused before any file is written."""
    from engine.config import THREAD_SHAPES
    from scraper.refs import NotAThreadURL, ThreadRef

    try:
        return ThreadRef.from_url(url).read_url
    except NotAThreadURL as error:
        raise click.ClickException(f"--thread: {error}。{THREAD_SHAPES}") from error


def _next_steps(config: Path, on_local_board: bool, origin: str, data: Path, board_name: str) -> str:
    """What to type next: the bot, and the local board it plays on (with the options `new` was given,
    so that the board serves the thread where the configuration looks for it)."""
    if not on_local_board:
        return f"threadgm run {config}"
    board = ["threadgm board"]
    port = urlsplit(origin).port
    if port not in (None, 8380):
        board.append(f"--port {port}")
    if data != Path("var/board"):
        board.append(f"--data {data}")
    if board_name != "demo":
        board.append(f"--board {board_name}")
    return f"{' '.join(board)}（ローカル掲示板）と threadgm run {config}"


def _interactive() -> bool:
    """Whether someone at a terminal can answer a question (a script or a pipe never hangs on one)."""
    return sys.stdin.isatty()


def _gm_trips(key: str) -> tuple[str, ...]:
    """`--gm`: '#key' or 'name#key' (the trip the board will make of it), or a ◆TRIP as it is."""
    from board.tripcode import name_and_trip

    key = key.strip()
    if not key:
        return ()
    if key.startswith("◆"):
        return (key[1:].strip(),)
    trip = name_and_trip(key)[1]
    if not trip:
        raise click.ClickException("--gm は '#キー'（または ◆トリップ）で指定してください")
    return (trip,)


def _game_ids(config: Path) -> set[str]:
    """The ids of the games a configuration already has (it must be TOML a game can be added to)."""
    from engine.gm_files import ConfigError, read_text

    try:
        text = read_text(config)
        data = tomllib.loads(text)
    except (OSError, ConfigError, tomllib.TOMLDecodeError) as error:
        raise click.ClickException(f"{config}: 読めないためゲームを足せません ({error})") from error
    tables = data.get("game", [])
    # a `game = [...]` written inline cannot take a [[game]] table after it: TOML would refuse the file
    if not isinstance(tables, list) or (tables and "[[game]]" not in text):
        raise click.ClickException(f"{config}: game が [[game]] の表ではないため、ゲームを足せません")
    return {str(table.get("id")) for table in tables if isinstance(table, dict)}


def _append(config: Path, table: str) -> None:
    """A [[game]] added at the end of the GM's configuration. A file saved in Shift_JIS is written
    again whole in UTF-8 (its lines kept): UTF-8 appended to it would make a file of two encodings."""
    from engine.gm_files import read_text

    before = read_text(config)
    gap = ("" if before.endswith("\n") else "\n") + "\n"
    try:
        config.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        config.write_text(before + gap + table, "utf-8")
        click.echo(f"{config} は Shift_JIS だったため、UTF-8 で書き直しました（内容はそのままです）")
        return
    with config.open("a", encoding="utf-8") as file:
        file.write(gap + table)


def _free_id(game: str, taken: set[str]) -> str:
    """The game's name, or the first `name-2`, `name-3`… no game of the configuration has."""
    if game not in taken:
        return game
    return next(f"{game}-{n}" for n in range(2, len(taken) + 3) if f"{game}-{n}" not in taken)
