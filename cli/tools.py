"""The offline tools of the command line, generic over a registry of games: `threadgm adjudicate GAME`,
`threadgm simulate GAME`, `threadgm help GAME`, `threadgm roll`, `threadgm verify` (and `threadgm new`,
from `cli.new_game`). `scheduler.py` builds them with the registry it holds, so the engine itself
names no game; each runs the very functions the bot runs.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cli.new_game import OpenThread, new_command
from engine.ruleset import ImportsCharacters, Registry, Ruleset, RulesetError, Simulates

if TYPE_CHECKING:  # the rest is imported by the command that uses it, when it runs
    from engine.config import GameConfig
    from engine.offline.verify import Verification
    from engine.report import Report
    from engine.ruleset import Registry, Ruleset

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
NOTHING_TO_CHECK = 3  # verify's exit code when nothing could be compared (0: all match, 1: a mismatch)
AMBIGUOUS_BOT = 4  # verify's exit code when several trips spoke as the bot and none was named


def read_text(path: Path) -> str:
    """A file the GM saved, or click's error saying why it cannot be read."""
    from engine import gm_files  # not engine.config: its checks load the clock and the scheduler

    try:
        return gm_files.read_text(path)
    except gm_files.ConfigError as error:
        raise click.ClickException(str(error)) from error


def _optional_text(path: Path | None) -> str | None:
    return read_text(path) if path is not None else None


class GameChoice(click.ParamType):
    """A registered game's id, looked up when the command runs (a game registered later counts)."""

    name = "game"

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def get_metavar(self, param: click.Parameter, *args: object, **kwargs: object) -> str:
        return "[" + "|".join(self.registry.ids()) + "]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in self.registry:
            return str(value)
        import difflib  # for the mistake's hint only

        close = difflib.get_close_matches(str(value), self.registry.ids(), n=1, cutoff=0.7)
        hint = f"（「{close[0]}」のことですか？）" if close else ""
        self.fail(f"{value!r} はありません{hint}（使えるもの: {', '.join(self.registry.ids())}）", param, ctx)


def tool_commands(
    registry: Registry,
    render: Callable[[Report], str],
    load_thread: Callable[[str, str | None], tuple[list, str]],
    open_thread: OpenThread,
    config_trip: Callable[[Path], str],
) -> list[click.Command]:
    """The commands, given the games, how a report reads on a board, how to read a thread, how to
    open one on the local board, and how to tell the bot's trip from its configuration."""
    return [
        _adjudicate(registry),
        _simulate(registry),
        _help(registry),
        _import_character(registry),
        new_command(registry, open_thread, GameChoice(registry)),
        _roll(render),
        _verify(registry, render, load_thread, config_trip),
    ]


def _adjudicate(registry: Registry) -> click.Command:
    """`threadgm adjudicate GAME`: one period offline, carried across periods with --state."""
    games = GameChoice(registry)

    @click.command("adjudicate")
    @click.argument("game", type=games)
    @click.option("--scenario", type=_FILE, help="Scenario TOML (or --state).")
    @click.option(
        "--orders", required=True, type=_FILE, help="ORDERS.txt: one order per line, in posting order."
    )
    @click.option("--randoms", type=_FILE, help="RANDOMS.txt: the published random numbers to use.")
    @click.option("--seed", type=int, help="Draw the random numbers from this seed instead (default 0).")
    @click.option("--state", "state_in", type=_FILE, help="Start from a state saved by --save-state.")
    @click.option(
        "--save-state", type=click.Path(dir_okay=False, path_type=Path), help="Write the next state."
    )
    @click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
    @click.option(
        "--indent",
        type=click.IntRange(0, 8),
        help="Indent the JSON (of --format json and --save-state) for people; compact without it.",
    )
    def adjudicate_command(
        game: str,
        scenario: Path | None,
        orders: Path,
        randoms: Path | None,
        seed: int | None,
        state_in: Path | None,
        save_state: Path | None,
        fmt: str,
        indent: int | None,
    ) -> None:
        """命令を一括処理して結果を表示する (offline GM preview of one period, with the bot's own rules)."""
        from engine.offline.adjudicate import adjudicate, starting_state
        from engine.rng import DiceError

        if randoms is not None and seed is not None:
            raise click.UsageError("--randoms と --seed はどちらか一方だけ指定してください")
        ruleset = registry.get(game)
        try:
            state = starting_state(ruleset, _optional_text(scenario), _optional_text(state_in))
            result = adjudicate(
                ruleset, state, read_text(orders), randoms_text=_optional_text(randoms), seed=seed
            )
        except (ValueError, DiceError) as error:
            raise click.ClickException(str(error)) from error
        if save_state is not None:
            save_state.write_text(_json(result.data["state"], indent), "utf-8")
        click.echo(_json(result.data, indent) if fmt == "json" else result.report.plain)

    return adjudicate_command


def _json(data: object, indent: int | None) -> str:
    """Compact unless asked: only then does `json` use its C encoder (with `indent` it runs the pure
    Python one — a 10,000-order naval period's JSON took 0.33 s indented, 0.10 s compact)."""
    if indent is None:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(data, ensure_ascii=False, indent=indent)


def _simulate(registry: Registry) -> click.Command:
    """`threadgm simulate GAME`: whole games played by themselves."""
    games = GameChoice(registry)

    @click.command("simulate")
    @click.argument("game", type=games)
    @click.option("--scenario", type=_FILE, help="Scenario TOML (default: the game's packaged one).")
    @click.option("--runs", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
    @click.option(
        "--seed", default="0", show_default=True, help="Run r is seeded by sha256('simulate|SEED|r')."
    )
    @click.option(
        "--from",
        "state_in",
        type=_FILE,
        help="Play on from a stored game's state (--save-state of adjudicate, or the state JSON in the store).",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
    def simulate_command(
        game: str, scenario: Path | None, runs: int, seed: str, state_in: Path | None, as_json: bool
    ) -> None:
        """ゲームを丸ごとシミュレーションする (whole games played by themselves, offline). Simulations may
        roll a fast seeded PRNG instead of the verifiable dice streams: their dice are not verifiable."""
        ruleset = registry.get(game)
        if scenario is not None and state_in is not None:
            raise click.UsageError("--scenario と --from はどちらか一方だけ指定してください")
        if not isinstance(ruleset, Simulates):
            raise click.ClickException(f"{ruleset.NAME} はひとりでは進まないため、シミュレーションできません")
        try:
            if state_in is not None:
                stored = json.loads(read_text(state_in))
                if isinstance(stored, dict) and isinstance(stored.get("state"), dict):
                    stored = stored["state"]
                if not isinstance(stored, dict):
                    raise ValueError(f"{state_in} は状態のJSONではありません")
                figures = ruleset.simulate_from(ruleset.state_from_dict(stored), runs, seed, as_json=as_json)
            else:
                data = ruleset.read_scenario(read_text(scenario)) if scenario is not None else {}
                figures = ruleset.simulate(data, runs, seed, as_json=as_json)
        except ValueError as error:
            raise click.ClickException(str(error)) from error
        if figures is None:
            raise click.ClickException(f"{ruleset.NAME} はひとりでは進まないため、シミュレーションできません")
        click.echo(figures)

    return simulate_command


def _help(registry: Registry) -> click.Command:
    """`threadgm help GAME`: the rules as the bot applies them."""
    games = GameChoice(registry)

    @click.command("help")
    @click.argument("game", type=games)
    def help_command(game: str) -> None:
        """ゲームのルール（ボットが適用するとおり）を表示する."""
        click.echo(registry.get(game).HELP)

    return help_command


def _imported(ruleset: Ruleset, text: str, owner: str) -> str:
    """A character another tool exported, as the table for the game's scenario (RulesetError when the
    game has no characters to import)."""
    if not isinstance(ruleset, ImportsCharacters):
        raise RulesetError(f"{ruleset.NAME}にはキャラクターの取り込みがありません")
    return ruleset.import_character(text, owner)


def _import_character(registry: Registry) -> click.Command:
    """`threadgm import-character GAME FILE`: another tool's character as the game takes it (DysTopiA:
    【キャラシート】 posts ready to paste into the thread)."""
    games = GameChoice(registry)

    @click.command("import-character")
    @click.argument("game", type=games)
    @click.argument("source", type=_FILE)
    @click.option(
        "--owner",
        default="",
        help="The player's trip (◆…), written as the sheet's PL: line (the GM posts it).",
    )
    def import_character_command(game: str, source: Path, owner: str) -> None:
        """キャラクターを取り込む: ココフォリアのキャラクターJSONを、スレに貼れる【キャラシート】にして表示する."""
        try:
            click.echo(_imported(registry.get(game), read_text(source), owner.strip()), nl=False)
        except RulesetError as error:
            raise click.ClickException(str(error)) from error

    return import_character_command


def _roll(render: Callable[[Report], str]) -> click.Command:
    """`threadgm roll`: one command, or a whole post, answered as the bot would."""

    @click.command("roll")
    @click.option("--rands", help="Recorded faces SIDES:VALUE,... used in order instead of random dice.")
    @click.option("--json", "as_json", is_flag=True, help="Print text, flags and rolls as JSON.")
    @click.argument("command")
    def roll_dice_command(rands: str | None, as_json: bool, command: str) -> None:
        """ダイスを振る: 1コマンドの返答を表示する (`-` reads a whole post from standard input)."""
        from engine.dice.post import answer_post, roll_command
        from engine.rng import DiceError, RecordedDice, RecordedSource, SeededSource, parse_rands

        try:
            recorded = RecordedDice(parse_rands(rands)) if rands is not None else None
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--rands") from error
        source = RecordedSource(default=recorded) if recorded is not None else SeededSource(os.urandom(32))
        try:
            if command == "-":
                answer = answer_post(sys.stdin.read(), source)
            else:
                answer = roll_command(command, source.stream("roll"))
        except DiceError as error:
            raise click.ClickException(f"記録された出目が合いません: {error}") from error
        if recorded is not None and recorded.remaining:
            raise click.ClickException(f"記録された出目が{recorded.remaining}個使われずに残りました")
        if answer is None:
            what = (
                "この書き込みにダイスコマンドはありません"
                if command == "-"
                else f"「{command}」はダイスコマンドではありません"
            )
            raise click.ClickException(f"{what}（例: 2D6>=7、dice2d47=、choice[A,B]）")
        if command != "-":
            flags = ("secret", "success", "failure", "critical", "fumble")
            data = {
                "text": answer.text,
                **{flag: getattr(answer, flag) for flag in flags},
                "rolls": answer.rolls,
            }
            click.echo(json.dumps(data, ensure_ascii=False) if as_json else answer.text)
            return
        body = render(answer)
        secret = answer.meta.get("secret", {})
        click.echo(json.dumps({"text": body, "secret": secret}, ensure_ascii=False) if as_json else body)

    return roll_dice_command


def _verify_each_candidate(
    candidates: tuple[str, ...], verified: Callable[[list[str]], Verification]
) -> None:
    """Several trips spoke as the bot and nothing says which is it: the thread verified as each would
    have it, and no verdict (a stranger who posted first could frame the bot, or forge a roll)."""
    for trip in candidates:
        click.echo(f"◆{trip} をボットとした場合:")
        result = verified([trip])
        for text in result.summary().split("\n"):
            if not text.startswith("結果:"):
                click.echo(f"  {text}")
        click.echo(
            "  "
            + ("一致しないものがあります" if not result.ok else "このトリップの書き込みどうしは矛盾しません")
        )
    listed = "、".join(f"◆{trip}" for trip in candidates)
    click.echo(
        f"結果: ボットのトリップが一つに決まりません（候補: {listed}）。"
        "--config（ボットの設定）か --trip でボットを指定してください"
    )
    raise SystemExit(AMBIGUOUS_BOT)


def _configured_game(registry: Registry, config: Path, thread_key: str) -> GameConfig | None:
    """The configuration's game in this thread (the only game, when none names the thread)."""
    from engine.config import ConfigError, load_config

    try:
        _, games = load_config(config, registry, lambda url: None)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error
    named = [game for game in games if game.thread.rstrip("/").rsplit("/", 1)[-1] == thread_key]
    return named[0] if named else games[0] if len(games) == 1 else None


def _scenario(game: Ruleset | None, path: Path | None) -> dict | None:
    if path is None:
        return None
    if game is None:
        raise click.UsageError("--scenario には --rules（か --config）が必要です")
    try:
        return game.read_scenario(read_text(path))
    except RulesetError as error:
        raise click.ClickException(str(error)) from error


def _not_a_configuration(source: str) -> None:
    """`threadgm verify CONFIG.toml`: the configuration given where the thread goes."""
    if source.endswith(".toml"):
        raise click.ClickException(
            f"{source} は設定ファイルです。スレッドのURLか保存した dat を指定してください"
            f"（設定は --config で: threadgm verify URL --config {source}）"
        )


def _verify(
    registry: Registry,
    render: Callable[[Report], str],
    load_thread: Callable[[str, str | None], tuple[list, str]],
    config_trip: Callable[[Path], str],
) -> click.Command:
    """`threadgm verify`: every roll of a thread recomputed from the published keys."""
    games = GameChoice(registry)

    @click.command("verify")
    @click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
    @click.option("--key", "thread_key", help="Thread key, when a file's name does not hold it.")
    @click.option(
        "--trip",
        "trips",
        multiple=True,
        help="The bot's trip (default: the first to post 【ダイス検証】 or 【… 開始】).",
    )
    @click.option(
        "--config",
        "config",
        type=_FILE,
        help="The bot's configuration: its trip is the bot's; its game in the thread gives --rules, "
        "--scenario and the GMs.",
    )
    @click.option(
        "--rules",
        "rules_id",
        type=games,
        help=(
            "The game's ruleset: its period results, its step answers and its own checks "
            "(default: the one the opening 【NAME 開始】 names)."
        ),
    )
    @click.option(
        "--scenario",
        "scenario_path",
        type=_FILE,
        help="The game's scenario (with --rules): an immediate game's steps are replayed and recomputed.",
    )
    @click.option(
        "--gm-trip",
        "gm_trips",
        multiple=True,
        help="A GM's trip, for the replay (default: the configuration's, else those the bot obeyed).",
    )
    def verify_command(
        sources: tuple[str, ...],
        thread_key: str | None,
        trips: tuple[str, ...],
        config: Path | None,
        rules_id: str | None,
        scenario_path: Path | None,
        gm_trips: tuple[str, ...],
    ) -> None:
        """出目を検証する: スレの全ての出目を公開済みの鍵で再計算する (a thread URL or a saved dat/rawmode file;
        for a game that went on in a next thread, every part: each is checked with what the others published)."""
        from engine.offline.other_parts import carried_post
        from engine.offline.verify import bot_trips

        if config is not None:
            trips = (*trips, config_trip(config))
        check = _Check(registry, render, config, trips, rules_id, scenario_path, gm_trips)
        parts = [_thread_part(load_thread, source, thread_key) for source in sources]
        if len(parts) == 1:
            raise SystemExit(check.verify(*parts[0]))
        # a later part has no claim of its own (no opening, no 【ダイス検証】): the bot is who claimed first
        bot = [_bare_trip(trip) for trip in trips] or next(
            (list(found) for _, posts in parts if (found := bot_trips(posts))), []
        )
        codes = []
        for index, (key, shown) in enumerate(parts):
            others = [posts for other, (_, posts) in enumerate(parts) if other != index]
            carried = carried_post(others, bot)
            click.echo(f"== {sources[index]}")
            codes.append(check.verify(key, [carried, *shown] if carried else shown))
            click.echo("")
        # a mismatch anywhere; else all compared match; nothing to compare only when no part had any
        raise SystemExit(1 if 1 in codes else 0 if 0 in codes else max(codes))

    return verify_command


def _bare_trip(written: str) -> str:
    """A trip given on the command line: `TRIP`, `◆TRIP` or `名前◆TRIP` (copied from the thread)."""
    return written.strip().rpartition("◆")[2].strip()


def _thread_part(load_thread: Callable[[str, str | None], tuple[list, str]], source: str, key: str | None):
    """One thread named on verify's command line: its key and the posts verify reads (deleted posts
    and the board's own lines left out)."""
    from engine.offline.verify import ThreadPost

    _not_a_configuration(source)
    try:
        posts, thread_key = load_thread(source, key)
    except ValueError as error:
        raise click.ClickException(f"{source}: {error}") from error
    shown = [
        ThreadPost(p.number, p.trip, p.date, p.body, p.name) for p in posts if not p.deleted and not p.system
    ]
    return thread_key, shown


@dataclass(frozen=True)
class _Check:
    """What verify's options say, for each thread it is given."""

    registry: Registry
    render: Callable[[Report], str]
    config: Path | None
    trips: tuple[str, ...]
    rules_id: str | None
    scenario_path: Path | None
    gm_trips: tuple[str, ...]

    def verify(self, key: str, shown: list) -> int:
        """One thread verified and its summary printed; the exit code."""
        from engine.offline.verify import candidate_trips, verify_thread

        registry, rules_id, scenario_path = self.registry, self.rules_id, self.scenario_path
        configured = _configured_game(registry, self.config, key) if self.config is not None else None
        if configured is not None:
            rules_id = rules_id or configured.rules
            scenario_path = scenario_path or configured.scenario
        game = registry.get(rules_id) if rules_id is not None else None
        scenario = _scenario(game, scenario_path)
        gms = tuple(_bare_trip(t) for t in self.gm_trips) or (configured.gm_trips if configured else None)

        def rules(name: str) -> Ruleset | None:
            return registry.get(rules_id) if rules_id is not None else registry.by_name(name)

        def verified(bot: list[str]) -> Verification:
            return verify_thread(
                key, shown, self.render, bot, rules, game, known=registry, scenario=scenario, gm_trips=gms
            )

        candidates = candidate_trips(shown)
        if not self.trips and len(candidates) > 1:
            _verify_each_candidate(candidates, verified)
        result = verified([_bare_trip(t) for t in self.trips] or list(candidates[:1]))
        if result.bot_trips:
            click.echo("ボット: " + ", ".join(f"◆{trip}" for trip in result.bot_trips))
        if result.game:
            click.echo(f"ゲーム: {result.game}")
        click.echo(result.summary())
        return 1 if not result.ok else NOTHING_TO_CHECK if result.nothing_checked else 0
