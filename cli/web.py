"""`threadgm picture GAME` and `threadgm export GAME`: the game page's picture saved as an SVG file,
and a game's whole history as wiki markup. Like the engine's tools they are built over the registry
`scheduler.py` hands them, with its configuration loader.

A picture is drawn from what a user has at hand: a scenario or a state saved by `threadgm adjudicate
--save-state` (offline), or the bot's own store (`--config`, the state after `--period N`, by default
the last one resolved). The export reads the bot's store.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from cli.tools import GameChoice, read_text
from engine.config import BotConfig, ConfigError, GameConfig
from engine.referee import GameSetup
from engine.ruleset import Registry, picture_of, result_data
from poster.wiki import DIALECTS
from store.db import Store
from web.export import export
from web.history import periods, setup_of, state_at, thread_of

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
LoadConfig = Callable[[Path], tuple[BotConfig, list[GameConfig]]]


def web_commands(registry: Registry, load_config: LoadConfig) -> list[click.Command]:
    return [_picture(registry, load_config), _export(registry, load_config)]


def _stored_game(
    registry: Registry, load_config: LoadConfig, config: Path, rules: str, game_id: str | None
) -> tuple[Store, GameConfig, GameSetup]:
    """The configured game of `rules` (chosen by --game when there are several) with its store."""
    try:
        bot, games = load_config(config)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error
    chosen = [g for g in games if g.rules == rules and game_id in (None, g.id)]
    if not any(g.rules == rules for g in games):
        held = ", ".join(f"{g.id}（{g.rules}）" for g in games)
        raise click.ClickException(f"{config} に {rules} のゲームはありません（あるのは: {held}）")
    if len(chosen) != 1:
        names = ", ".join(g.id for g in games if g.rules == rules)
        raise click.ClickException(f"{rules} のゲームを --game で選んでください（{config}: {names}）")
    if not bot.database.is_file():
        raise click.ClickException(
            f"ボットのデータベースがありません: {bot.database}（threadgm run で作られます）"
        )
    store = Store(bot.database)
    setup = setup_of(chosen[0], registry, store, read_text)
    if setup is None:
        store.close()
        raise click.ClickException(f"{chosen[0].id} はまだ始まっていません（データベースに記録がありません）")
    return store, chosen[0], setup


def _picture(registry: Registry, load_config: LoadConfig) -> click.Command:
    games = GameChoice(registry)

    @click.command("picture")
    @click.argument("game", type=games)
    @click.option("--scenario", type=_FILE, help="Draw the scenario's starting state.")
    @click.option("--state", "state_file", type=_FILE, help="Draw a state saved by adjudicate --save-state.")
    @click.option("--config", "config", type=_FILE, help="Draw the bot's stored state of the game.")
    @click.option("--game", "game_id", help="The game's id in the configuration (when it has several).")
    @click.option("--period", type=click.IntRange(0), help="The state after this period (default: the last).")
    def picture_command(
        game: str,
        scenario: Path | None,
        state_file: Path | None,
        config: Path | None,
        game_id: str | None,
        period: int | None,
    ) -> None:
        """盤面の図をSVGで書き出す (the game page's picture: `threadgm picture naval --config bot.toml > map.svg`)."""
        ruleset = registry.get(game)
        if sum(x is not None for x in (scenario, state_file, config)) != 1:
            raise click.UsageError("--scenario、--state、--config のどれか一つを指定してください")
        result = None
        try:
            if config is not None:
                store, chosen, setup = _stored_game(registry, load_config, config, game, game_id)
                try:
                    state, after = state_at(setup, store, period)
                    if after:
                        told = {p.number: p for p in periods(setup, thread_of(store, chosen), store)}
                        shown = told.get(after)
                        result = result_data(shown.report) if shown and shown.report else None
                finally:
                    store.close()
            elif state_file is not None:
                state = ruleset.state_from_dict(json.loads(read_text(state_file)))
            else:
                assert scenario is not None
                state = ruleset.initial_state(ruleset.read_scenario(read_text(scenario)))
        except (ValueError, LookupError) as error:
            raise click.ClickException(str(error)) from error
        drawn = picture_of(ruleset, state, result)
        if drawn is None:
            raise click.ClickException(f"{ruleset.NAME} には図がありません（状態 の表をご覧ください）")
        click.echo(drawn)

    return picture_command


def _export(registry: Registry, load_config: LoadConfig) -> click.Command:
    games = GameChoice(registry)

    @click.command("export")
    @click.argument("game", type=games)
    @click.option("--config", "config", type=_FILE, required=True, help="The bot's configuration.")
    @click.option("--game", "game_id", help="The game's id in the configuration (when it has several).")
    @click.option("--format", "dialect", type=click.Choice(DIALECTS), default="atwiki", show_default=True)
    def export_command(game: str, config: Path, game_id: str | None, dialect: str) -> None:
        """ゲームの記録をWiki記法で書き出す (every period: orders, results, standings — for atwiki, PukiWiki or Markdown)."""
        store, chosen, setup = _stored_game(registry, load_config, config, game, game_id)
        try:
            click.echo(export(store, chosen, setup, dialect), nl=False)  # type: ignore[arg-type]
        except (ValueError, LookupError) as error:
            raise click.ClickException(str(error)) from error
        finally:
            store.close()

    return export_command
