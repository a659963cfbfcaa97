"""threadgm's composition root: the command line, the configuration, and the jobs that wire
scraper → parser → engine → poster over the store. The only module that knows all of them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import signal
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import click
import requests
from apscheduler.schedulers.background import BackgroundScheduler

from engine.report import Block, Report
from engine.rng import commitment, period_key
from engine.ruleset import Ruleset
from engine.schedule import ScheduleError, parse_schedule
from parser.gm_words import CANCEL_WORDS, READY_WORDS
from poster.markup import PostLimits, render_posts
from poster.outbox import OutboxSender, SendResult, comparable
from poster.writer import BoardWriter, board_reason
from scraper.fetch import USER_AGENT, FetchError, FetchState, fetch, make_session
from scraper.post import Post
from scraper.refs import Dialect, NotAThreadURL, ThreadRef
from scraper.settings import BoardLimits, fetch_limits
from scraper.subject import still_listed
from store.db import PeriodRecord, PostRecord, Store

DEFAULT_BOARD_DATA = Path("var/board")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """threadgm — スレッド進行GMボット (a game-master bot for Japanese text boards)."""


# -- the local board ---------------------------------------------------------------------------


@main.command("board")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 for a LAN)."
)
@click.option("--port", default=8380, show_default=True, type=int)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_BOARD_DATA,
    show_default=True,
    help="Directory holding the boards.",
)
@click.option(
    "--board",
    "boards",
    multiple=True,
    default=["demo"],
    show_default=True,
    help="Board to serve (repeatable); created if missing.",
)
@click.option(
    "--samba",
    type=int,
    default=None,
    help="Seconds between one client's posts on boards created now (default 10; 0 = off).",
)
@click.option(
    "--trust-proxy", is_flag=True, help="Take client addresses from X-Forwarded-For (behind a proxy)."
)
def board_command(
    host: str, port: int, data: Path, boards: tuple[str, ...], samba: int | None, trust_proxy: bool
) -> None:
    """ローカル掲示板を起動する (serve 2ch- and したらば-compatible boards)."""
    from board.server import make_app, serve

    defaults = {"BBS_SAMBATIME": str(samba)} if samba is not None else None
    app = make_app(data, boards, defaults=defaults)
    for name in app.boards:
        click.echo(f"2ch:      http://{host}:{port}/{name}/")
        click.echo(f"したらば: http://{host}:{port}/local/{name}/")
    with contextlib.suppress(KeyboardInterrupt):  # waitress usually returns on Ctrl-C by itself
        serve(app, host, port, trust_proxy=trust_proxy)
    click.echo("掲示板を停止しました")


@main.group("board-admin")
@click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_BOARD_DATA, show_default=True
)
@click.pass_context
def board_admin(ctx: click.Context, data: Path) -> None:
    """ローカル掲示板の管理 (delete posts, stop threads, change settings)."""
    ctx.obj = data


@board_admin.command("delete")
@click.argument("board")
@click.argument("key")
@click.argument("number", type=int)
@click.pass_obj
def board_admin_delete(data: Path, board: str, key: str, number: int) -> None:
    """レスを削除する (あぼーん; numbering is kept)."""
    from board import admin

    try:
        admin.delete_post(data, board, key, number)
    except (LookupError, IndexError) as error:
        raise click.ClickException(f"削除できません: {error}") from error
    click.echo(f"{board}/{key} >>{number} をあぼーんしました")


@board_admin.command("stop")
@click.argument("board")
@click.argument("key")
@click.pass_obj
def board_admin_stop(data: Path, board: str, key: str) -> None:
    """スレッドを停止する (thread stop: error 200 on later posts)."""
    from board import admin

    try:
        admin.stop_thread(data, board, key)
    except LookupError as error:
        raise click.ClickException(f"停止できません: {error}") from error
    click.echo(f"{board}/{key} を停止しました")


@board_admin.command("set")
@click.argument("board")
@click.argument("assignments", nargs=-1, required=True)
@click.pass_obj
def board_admin_set(data: Path, board: str, assignments: tuple[str, ...]) -> None:
    """SETTING.TXT の値を変える (KEY=VALUE ...)."""
    from board import admin

    changes = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} は KEY=VALUE ではありません")
        changes[key] = value
    admin.update_settings(data, board, changes)
    click.echo(f"{board}: " + ", ".join(f"{k}={v}" for k, v in changes.items()))


@board_admin.command("new-thread")
@click.argument("board")
@click.argument("title")
@click.argument("message")
@click.option("--name", default="", help="Name field (may carry #tripkey).")
@click.pass_obj
def board_admin_new_thread(data: Path, board: str, title: str, message: str, name: str) -> None:
    """スレッドを立てる (prints the new thread's key)."""
    from board import admin

    try:
        click.echo(admin.open_thread(data, board, title, message, name))
    except ValueError as error:
        raise click.ClickException(str(error)) from error


# -- tripcodes ----------------------------------------------------------------------------------


@main.command("trip")
@click.argument("name_field")
def trip_command(name_field: str) -> None:
    """名前欄のトリップを表示する (print the ◆trip of a name field such as '#key' or 'GM#key')."""
    from board.tripcode import NoTripKeyError, display_trip

    try:
        click.echo(display_trip(name_field))
    except NoTripKeyError as error:
        click.echo(f"エラー: {error}", err=True)
        raise SystemExit(2) from None


# -- offline adjudication (GM preview) ------------------------------------------------------------

# Rulesets that can resolve a period offline: RULES → module with `adjudicate(scenario_text, orders_text,
# randoms_text=..., source=...)` returning `.report` (a Report) and `.data` (JSON-ready).
ADJUDICATE_RULESETS = {"naval": "engine.rules.naval"}


def _read_adjudicate_input(path: Path) -> str:
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise click.ClickException(f"{path} の文字コードが読めません（UTF-8 か Shift_JIS で保存してください）")


@main.command("adjudicate")
@click.argument("rules", type=click.Choice(sorted(ADJUDICATE_RULESETS)))
@click.option(
    "--scenario",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Scenario TOML.",
)
@click.option(
    "--orders",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="ORDERS.txt: one order per line, in posting order.",
)
@click.option(
    "--randoms",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="RANDOMS.txt: the published random numbers of each island.",
)
@click.option("--seed", type=int, help="Draw the random numbers from this seed instead (default 0).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def adjudicate_command(
    rules: str, scenario: Path, orders: Path, randoms: Path | None, seed: int | None, fmt: str
) -> None:
    """命令を一括処理して結果を表示する (offline GM preview of one period)."""
    import hashlib
    import importlib
    import json

    from engine.rng import SeededSource

    if randoms is not None and seed is not None:
        raise click.UsageError("--randoms と --seed はどちらか一方だけ指定してください")
    ruleset = importlib.import_module(ADJUDICATE_RULESETS[rules])
    source = None
    if randoms is None:
        source = SeededSource(hashlib.sha256(f"adjudicate|{seed or 0}".encode()).digest())
    try:
        result = ruleset.adjudicate(
            _read_adjudicate_input(scenario),
            _read_adjudicate_input(orders),
            randoms_text=_read_adjudicate_input(randoms) if randoms is not None else None,
            source=source,
        )
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    if fmt == "json":
        click.echo(json.dumps(result.data, ensure_ascii=False, indent=2))
    else:
        click.echo(result.report.plain)


# -- dice ---------------------------------------------------------------------------------------


@main.command("roll")
@click.option("--rands", help="Recorded faces SIDES:VALUE,... used in order instead of random dice.")
@click.option("--json", "as_json", is_flag=True, help="Print text, flags and rolls as JSON.")
@click.argument("command")
def roll_dice_command(rands: str | None, as_json: bool, command: str) -> None:
    """ダイスを振る: 1コマンドの返答を表示する (`-` reads a whole post from standard input)."""
    import json
    import os
    import sys

    from engine.post_dice import answer_post, roll_command
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
        return
    if command != "-":
        flags = ("secret", "success", "failure", "critical", "fumble")
        data = {"text": answer.text, **{flag: getattr(answer, flag) for flag in flags}, "rolls": answer.rolls}
        click.echo(json.dumps(data, ensure_ascii=False) if as_json else answer.text)
        return
    from poster.markup import render_body

    body = render_body(answer)
    secret = answer.meta.get("secret", {})
    click.echo(json.dumps({"text": body, "secret": secret}, ensure_ascii=False) if as_json else body)


# == the bot =====================================================================================

JST = timezone(timedelta(hours=9), "JST")
ROLLOVER_RETRY = timedelta(minutes=10)
ROLLOVER_RETRY_MAX = timedelta(hours=2)
log = logging.getLogger("threadgm")


class ConfigError(ValueError):
    """The configuration file cannot be used as it is (the message says where and why)."""


@dataclass(frozen=True)
class BotConfig:
    name: str = "ダイス係"  # may carry #tripkey: the bot then knows its posts by the trip
    mail: str = "sage"
    database: Path = Path("var/threadgm.sqlite")
    user_agent: str = USER_AGENT


@dataclass(frozen=True)
class GameConfig:
    id: str
    rules: str
    thread: str
    poll_seconds: float = 5.0  # while the thread is active
    idle_seconds: float = 30.0  # once nobody has written for `idle_after` seconds
    idle_after: float = 600.0
    read: str = "raw"  # raw (dat / rawmode) or html (read.cgi, for boards without raw access)
    dice: bool = True  # answer dice commands in posts (besides the ruleset's orders)
    gm_trips: tuple[str, ...] = ()  # ◆TRIP of each GM (the server-made trip, checked exactly)
    scenario: Path | None = None  # the ruleset's scenario TOML, relative to the configuration file
    schedule: dict | None = None  # [game.schedule]: when periods end (rulesets that resolve periods)
    cancel_words: tuple[str, ...] = CANCEL_WORDS
    ready_words: tuple[str, ...] = READY_WORDS
    rollover_at: int = 20  # open the next thread when this many posts are left (0: only when full)
    title: str = ""  # title of threads the bot opens (default: the thread's own, with the next part number)
    seed: str | None = (
        None  # fixes the game's secret (tests, replays): anyone knowing it can predict the dice
    )


# Ruleset id → "module:attribute" of an object with the shape of engine.ruleset.Ruleset;
# "dice" is the plain dice thread, answered post by post.
RULESETS = {
    "dice": "",
    "guess": "engine.rules.guess:RULESET",
    "battle-royale": "engine.rules.battle_royale_ruleset:AUTOMATIC",
    "battle-royale-assist": "engine.rules.battle_royale_ruleset:ASSISTED",
    "naval": "engine.rules.naval_ruleset:RULESET",
}


def load_ruleset(ruleset_id: str) -> Ruleset | None:
    import importlib

    target = RULESETS[ruleset_id]
    if not target:
        return None
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _game_config(table: dict, where: str, base: Path) -> GameConfig:
    missing = {"id", "rules", "thread"} - set(table)
    if missing:
        raise ConfigError(f"{where}: {', '.join(sorted(missing))} がありません")
    unknown = set(table) - {f.name for f in fields(GameConfig)}
    if unknown:
        raise ConfigError(f"{where}: 知らない項目があります: {', '.join(sorted(unknown))}")
    if table["rules"] not in RULESETS:
        raise ConfigError(
            f"{where}: rules = {table['rules']!r} はありません（使えるもの: {', '.join(RULESETS)}）"
        )
    try:
        ThreadRef.from_url(table["thread"])
    except NotAThreadURL as error:
        raise ConfigError(f"{where}: {error}") from error
    if table.get("read", "raw") not in ("raw", "html"):
        raise ConfigError(f"{where}: read は raw か html です")
    values = dict(table)
    for key in ("gm_trips", "cancel_words", "ready_words"):
        if key in values:
            values[key] = tuple(values[key])
    values["gm_trips"] = tuple(trip.strip().lstrip("◆") for trip in values.get("gm_trips", ()))
    if "scenario" in values:
        values["scenario"] = (base / values["scenario"]).resolve()
        if not values["scenario"].is_file():
            raise ConfigError(f"{where}: scenario のファイルがありません: {values['scenario']}")
    ruleset = load_ruleset(table["rules"])
    if ruleset is not None and not ruleset.immediate:
        if "schedule" not in values:
            raise ConfigError(
                f"{where}: rules = {table['rules']!r} には [game.schedule]（更新時刻）が必要です"
            )
        try:
            parse_schedule(values["schedule"])
        except ScheduleError as error:
            raise ConfigError(f"{where}: {error}") from error
    return GameConfig(**values)


def load_config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: 読めません ({error})") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: TOML の書き方が正しくありません ({error})") from error
    bot_table = data.get("bot", {})
    unknown = set(bot_table) - {f.name for f in fields(BotConfig)}
    if unknown:
        raise ConfigError(f"{path}: [bot] に知らない項目があります: {', '.join(sorted(unknown))}")
    bot = BotConfig(**{**bot_table, "database": Path(bot_table.get("database", BotConfig.database))})
    games = [
        _game_config(table, f"{path}: [[game]] {index} 番目", path.parent)
        for index, table in enumerate(data.get("game", []), start=1)
    ]
    if not games:
        raise ConfigError(f"{path}: [[game]] がひとつもありません")
    if len({game.id for game in games}) != len(games):
        raise ConfigError(f"{path}: [[game]] の id が重複しています")
    return bot, games


def _record(thread_id: str, post: Post) -> PostRecord:
    return PostRecord(
        thread_id,
        post.number,
        post.name,
        post.trip,
        post.mail,
        post.date,
        post.id,
        post.body,
        post.raw,
        post.title,
        post.deleted,
        post.system,
    )


@dataclass
class TickResult:
    read: str = ""  # the fetch outcome
    new_posts: int = 0  # posts of others that arrived
    queued: int = 0
    sent: int = 0
    note: str = ""


class ThreadBot:
    """One game on its thread: read what is new, answer dice, take orders and GM commands, resolve
    the periods that are due, send what is owed, and move to the next thread when this one fills."""

    def __init__(
        self,
        game: GameConfig,
        bot: BotConfig,
        store: Store,
        session: requests.Session,
        clock: Callable[[], datetime] = lambda: datetime.now(JST),
    ) -> None:
        from board.tripcode import name_and_trip

        self.game = game
        self.store = store
        self.session = session
        self.clock = clock
        configured = ThreadRef.from_url(game.thread)
        store.ensure_thread(configured.id, game.thread, str(configured.dialect), game.id)
        fixed = (
            hashlib.sha256(f"threadgm-seed|{game.seed}".encode()).digest() if game.seed is not None else None
        )
        record = store.game(game.id, game.rules, configured.id, clock(), secret=fixed)
        self.secret, self.joined = record.secret, record.created_at
        self.ref = self._current_thread(configured)
        self.name, self.trip = name_and_trip(bot.name)
        self.writer = BoardWriter(session, bot.name, bot.mail)
        self.sender = OutboxSender(store, self.writer, clock, self.is_own)
        self.limits: BoardLimits | None = None
        self.last_poll: datetime | None = None
        # After a refused new thread (スレッド立てすぎ on ex0ch lasts until others open threads), wait
        # before asking the board again; the wait doubles up to ROLLOVER_RETRY_MAX.
        self.rollover_retry: tuple[datetime, timedelta] | None = None
        self.queued = 0  # posts queued in the current poll, for the log
        self.ruleset = load_ruleset(game.rules)
        self.periodic = self.ruleset is not None and not self.ruleset.immediate
        self.immediate_rules = self.ruleset is not None and self.ruleset.immediate
        self.schedule = parse_schedule(game.schedule) if self.periodic and game.schedule else None
        self.scenario = tomllib.loads(game.scenario.read_text("utf-8")) if game.scenario else {}

    @property
    def thread_id(self) -> str:
        return self.ref.id

    def _current_thread(self, configured: ThreadRef) -> ThreadRef:
        """The game's newest thread: after a rollover the game lives on in the thread it opened."""
        threads = self.store.threads_of_game(self.game.id)
        return ThreadRef.from_url(threads[-1].url) if threads else configured

    # -- identity ---------------------------------------------------------------------------------

    def is_own(self, post: PostRecord) -> bool:
        """With a trip, the trip proves it; without one, the name and a body the bot queued."""
        if self.trip:
            return post.trip == self.trip
        if post.name != self.name:
            return False
        body = comparable(post.body)
        return any(
            comparable(row.body) == body for row in self.store.outbox(self.thread_id, ["sending", "sent"])
        )

    @staticmethod
    def author(post: PostRecord) -> str:
        """Who wrote a post, as games know players: name◆trip, or the bare name without a trip."""
        return f"{post.name}◆{post.trip}" if post.trip else post.name

    def _others_after(self, number: int) -> bool:
        return any(not post.own for post in self.store.posts_after(self.thread_id, number))

    # -- the poll ---------------------------------------------------------------------------------

    def due(self, now: datetime) -> bool:
        """Poll fast while people write, slowly once the thread has been quiet for a while."""
        if self.last_poll is None:
            return True
        active_at = self.store.thread(self.thread_id).active_at
        quiet = (
            active_at is None
            or (now - datetime.fromisoformat(active_at)).total_seconds() > self.game.idle_after
        )
        interval = self.game.idle_seconds if quiet else self.game.poll_seconds
        if self.periodic and self._next_event(now) is not None and self._next_event(now) <= now:
            return True  # a deadline or a reminder is due: do not wait for the slow interval
        return (now - self.last_poll).total_seconds() >= interval - 0.05

    def tick(self) -> TickResult:
        now = self.clock()
        self.last_poll = now
        thread = self.store.thread(self.thread_id)
        if thread.status != "active":
            return TickResult(note=f"thread is {thread.status}: {thread.status_note}")
        if self.limits is None:
            self.limits = fetch_limits(self.session, self.ref)
            self.store.set_res_max(self.thread_id, self.limits.res_max)
        state = FetchState(thread.size, thread.last_modified, thread.last_number)
        try:
            result = fetch(self.session, self.ref, state, html=self.game.read == "html")
        except FetchError as error:
            log.warning("%s: could not read the thread: %s (trying again next poll)", self.game.id, error)
            return TickResult(read="error", note=str(error))
        if result.outcome == "gone":
            # One answer is not enough to give a game up: a proxy or a maintenance page can say 404
            # for a moment. The board's own thread list decides.
            if still_listed(self.session, self.ref) is not False:
                log.warning(
                    "%s: the board answered %s for the thread, but it may still be there (subject.txt "
                    "lists it or could not be read); trying again next poll",
                    self.game.id,
                    result.note,
                )
                return TickResult(read="error", note=result.note)
            self.store.set_thread_status(self.thread_id, "gone", result.note)
            log.error(
                "%s: the thread is gone from the board (%s, and subject.txt no longer lists it); "
                "stopping this game",
                self.game.id,
                result.note,
            )
            return TickResult(read="gone", note=result.note)
        fresh = self.store.record_fetch(
            self.thread_id,
            size=result.state.size,
            last_modified=result.state.last_modified,
            last_number=result.state.last_number,
            posts=[_record(self.thread_id, post) for post in result.posts],
            now=now,
            is_own=self.is_own,
        )
        # Whether an unconfirmed post landed can only be told from a whole read: a cut answer may
        # end just before it. Sending waits too, so answers keep their order.
        if result.complete:
            self.sender.reconcile(self.thread_id)
        self.queued = 0
        follow = self._process_posts(now)
        if self.periodic:
            self._run_periods(now)
        last_number = result.state.last_number
        if result.complete:
            sent = self.sender.send(self.ref, self.thread_id, last_number, self._others_after)
        else:
            sent = SendResult(waiting="the read ended inside a post: sending after a whole read")
        tick = TickResult(
            result.outcome, sum(not post.own for post in fresh), self.queued, sent.sent, sent.waiting or ""
        )
        if follow is not None:
            self._move_to(follow, "次スレ（GM）", now)
        elif sent.closed or last_number >= self.limits.res_max or any(post.system for post in result.posts):
            tick.note = self._thread_full(
                sent.closed or f"the thread reached its limit of {self.limits.res_max} posts", now
            )
        elif self.game.rollover_at and last_number + sent.sent >= self.limits.res_max - self.game.rollover_at:
            tick.note = self._roll_over(now, old_writable=True)
        return tick

    # -- reading posts: dice, GM commands, orders -------------------------------------------------

    def _process_posts(self, now: datetime) -> ThreadRef | None:
        """Answer the posts read this poll, in one transaction; returns the thread a GM moved the game to."""
        from engine import periods
        from engine.disclosure import PeriodStatus, disclosure_report, plan
        from engine.rules import dice
        from parser.bbs_dice import is_quote
        from parser.gm import find_gm_commands
        from parser.gm_words import is_word

        posts = self.store.unhandled_posts(self.thread_id)
        reports: list[Report] = []
        handled: list[int] = []
        answering: set[str] = set()
        readings: list[tuple[PostRecord, periods.PostReading, int]] = []
        commands: list[tuple[PostRecord, list]] = []
        for post in posts:
            handled.append(post.number)
            if post.date is not None and post.date + timedelta(seconds=1) <= self.joined:
                continue  # written before the bot joined the thread (dates have whole seconds)
            gm_lines = find_gm_commands(post.body)
            if gm_lines:
                commands.append((post, gm_lines))
            day = dice.period_of(post.date or now)
            step = self._apply_immediate(post, day, now) if self.immediate_rules else None
            if step is not None:
                reports.append(step)
                answering.add(day)
            elif self.game.dice:
                answer = dice.answer(
                    self.ref.key, post.number, post.body, self._key(day), self._secret_keys(post.number)
                )
                if answer is not None:
                    reports.append(answer)
                    answering.add(day)
            if self.periodic and not (gm_lines and post.trip in self.game.gm_trips):
                period = self._period_of_post(post, now)
                reading = periods.read_post(
                    self.ruleset,
                    post=post.number,
                    author=self.author(post),
                    body=post.body,
                    period=period,
                    cancel_words=self.game.cancel_words,
                    ready_words=self.game.ready_words,
                    is_word=is_word,
                    is_quote=is_quote,
                )
                if reading.orders or reading.cancelled or reading.ready:
                    readings.append((post, reading, period))
        statuses = {
            record.period: PeriodStatus(bool(record.committed_in), bool(record.revealed_in))
            for record in self.store.periods(self.game.id)
        }
        disclosure = plan(statuses, now, answering=answering) if self.game.dice else None
        if not handled and not disclosure:
            return None
        keys = {
            day: self._key(day) for day in ((*disclosure.commit, *disclosure.reveal) if disclosure else ())
        }
        commitments = {day: commitment(key) for day, key in keys.items()}
        span = f"{handled[0]}-{handled[-1]}" if handled else "none"
        base = f"{self.game.id}/{self.ref.key}/{span}/{'+'.join((*disclosure.commit, *disclosure.reveal)) if disclosure else ''}"
        follow: ThreadRef | None = None
        with self.store.transaction():
            if disclosure:
                reports.insert(0, disclosure_report(disclosure, keys, commitments))
            if readings:
                receipt = self._take_orders(readings, base, now)
                if receipt is not None:
                    reports.append(receipt)
            for post, gm_lines in commands:
                echo, moved = self._gm(post, gm_lines, now)
                follow = moved or follow
                if echo is not None:
                    reports.append(echo)
            self._queue(reports, base, "answer", now)
            self.store.mark_handled(self.thread_id, handled)
            if disclosure:
                self._record_disclosure(disclosure, commitments, f"{base}/0")
        return follow

    def _apply_immediate(self, post: PostRecord, day: str, now: datetime) -> Report | None:
        """A ruleset that answers post by post (assisted play): its step for this post, stored as the
        next "period" so 巻き戻し undoes it like any resolution (inside the caller's transaction)."""
        from engine.periods import secret_commitment_line
        from engine.report import line, report
        from engine.rng import SeededSource, SplitSource
        from engine.rules.dice import PrefixedSource, purpose_prefix
        from engine.ruleset import Order, Rejection
        from store.db import ResolutionRecord

        parsed = self.ruleset.parse_post(post.body)
        if parsed is None:
            return None
        if isinstance(parsed, Rejection):
            return report(line(parsed.reason), reply_to=(post.number,))
        step = self._current_period()
        state = self._state_before(step)
        order = Order(
            post.number, 0, self.author(post), self.author(post), parsed.command, parsed.canonical, post.date
        )
        prefix = purpose_prefix(self.ref.key, post.number) + "rules/"
        source = SplitSource(
            PrefixedSource(SeededSource(self._key(day)), prefix),
            PrefixedSource(SeededSource(self._rules_secret), prefix),
        )
        new_state, answer = self.ruleset.apply(state, order, source)
        state_json = json.dumps(self.ruleset.state_to_dict(new_state), ensure_ascii=False)
        self.store.save_resolution(
            ResolutionRecord(self.game.id, step, state_json, f"post/{post.number}", now.isoformat(), 1)
        )
        head = [secret_commitment_line(commitment(self._rules_secret))] if step == 1 else []
        tail: list[Block] = []
        if self._finished(new_state):
            tail = self._finish_lines()
            self.store.set_game_status(self.game.id, "finished")
        answer = replace(answer, blocks=(*head, *answer.blocks, *tail))
        return replace(answer, reply_to=(post.number,))

    def _queue(self, reports: list[Report], base: str, kind: str, now: datetime) -> int:
        if not reports:
            return 0
        limits = self.limits or BoardLimits()
        bodies = render_posts(reports, PostLimits(limits.lines, limits.chars, limits.columns))
        with self.store.transaction():
            for index, body in enumerate(bodies):
                self.queued += self.store.queue(f"{base}/{index}", self.thread_id, kind, body, now)
        return len(bodies)

    def _record_disclosure(self, disclosure, commitments: dict[str, str], first: str) -> None:
        for day in disclosure.commit:
            previous = self.store.period(self.game.id, day)
            revealed = previous.revealed_in if previous else None
            self.store.save_period(PeriodRecord(self.game.id, day, commitments[day], first, revealed))
        for day in disclosure.reveal:
            previous = self.store.period(self.game.id, day)
            committed = previous.committed_in if previous else first
            self.store.save_period(PeriodRecord(self.game.id, day, commitments[day], committed, first))

    def _key(self, day: str) -> bytes:
        return period_key(self.secret, self.game.id, day)

    def _secret_keys(self, number: int) -> Callable[[int], bytes]:
        from engine.rules import dice

        key = self.ref.key
        return lambda index: dice.secret_key(self.secret, self.game.id, key, number, index)

    # -- orders -----------------------------------------------------------------------------------

    def _period_of_post(self, post: PostRecord, now: datetime) -> int:
        clock = self._period_clock(now)
        if clock is None:
            return 1
        return max(clock.period_of_post(post.date or now), self._current_period())

    def _take_orders(self, readings, base: str, now: datetime) -> Report | None:
        """Store the orders read in this poll, post by post (inside the caller's transaction: a
        取消 withdraws what its author wrote before it, in this poll too), and make the receipt."""
        from engine import periods
        from store.db import OrderRecord

        check = getattr(self.ruleset, "check", None)
        state = self._state_before(self._current_period()) if check is not None else None
        checked = []
        for post, reading, period in readings:
            if check is not None:
                reading = replace(
                    reading, orders=tuple(self._checked(check, state, order) for order in reading.orders)
                )
            checked.append((post, reading, period))
        readings = checked
        for post, reading, period in readings:
            author = self.author(post)
            if reading.cancelled:
                for order in self.store.orders(self.game.id, period, ["accepted"]):
                    if order.author == author and order.post < post.number:
                        why = f">>{post.number} 取消"
                        self.store.set_order_status(
                            order.game_id, order.thread_id, order.post, order.line, "cancelled", why
                        )
            if reading.ready:
                where = {"period": period, "post": post.number, "thread_id": self.thread_id, "author": author}
                self.store.log(self.game.id, "ready", {"player": author}, now, **where)
            written = post.date.isoformat() if post.date else None
            self.store.save_orders(
                OrderRecord(
                    self.game.id,
                    self.thread_id,
                    o.post,
                    o.line,
                    o.author,
                    o.player,
                    o.period,
                    o.text,
                    o.canonical,
                    o.key,
                    o.status,
                    o.reason,
                    written,
                    f"{base}/0",
                )
                for o in reading.orders
            )
        current = self._current_period()
        clock = self._period_clock(now)
        deadline = clock.deadline(current) if clock else None
        periods_of = {post.number: period for post, _, period in readings}
        return periods.receipt(
            periods_of, [(post.number, reading) for post, reading, _ in readings], current, deadline
        )

    @staticmethod
    def _checked(check: Callable, state: object, order) -> object:
        from engine.ruleset import Order

        if order.status != "accepted":
            return order
        reason = check(
            state, Order(order.post, order.line, order.author, order.player, order.command, order.canonical)
        )
        return replace(order, status="rejected", reason=reason) if reason else order

    # -- the clock of periods -----------------------------------------------------------------------

    def _period_clock(self, now: datetime):
        from engine.schedule import EarlyClose, Extension, PeriodClock, Resume
        from engine.schedule import Pause as ClockPause

        if self.schedule is None:
            return None
        started = self.store.game_started(self.game.id)
        if started is None:
            return None
        adjustments = []
        for entry in self.store.log_entries(self.game.id, ["pause", "resume", "extend", "early"]):
            args = json.loads(entry.args)
            at = datetime.fromisoformat(args["at"])
            if entry.kind == "pause":
                adjustments.append(ClockPause(at))
            elif entry.kind == "resume":
                adjustments.append(Resume(at))
            elif entry.kind == "extend":
                adjustments.append(Extension(entry.period, datetime.fromisoformat(args["deadline"])))
            else:
                adjustments.append(EarlyClose(entry.period, at))
        return PeriodClock(self.schedule, started, adjustments)

    def _current_period(self) -> int:
        last = self.store.last_resolution(self.game.id)
        return (last.period if last else 0) + 1

    def _next_event(self, now: datetime) -> datetime | None:
        clock = self._period_clock(now)
        if clock is None:
            return now  # not started: start at once
        return clock.next_event(self._current_period() - 1, now)

    def _state_before(self, period: int):
        """The game's state when `period` is resolved: the last resolution's, then the GM's 設定."""
        previous = self.store.resolution(self.game.id, period - 1) if period > 1 else None
        state = (
            self.ruleset.state_from_dict(json.loads(previous.state))
            if previous
            else self.ruleset.initial_state(self.scenario)
        )
        for entry in self.store.log_entries(self.game.id, ["set"]):
            if entry.period == period:
                args = json.loads(entry.args)
                state = self.ruleset.set_value(state, args["path"], args["value"])
        return state

    def _run_periods(self, now: datetime) -> int:
        """Open the game, remind the late, end a period early when all are ready, resolve what is due."""
        from engine import periods
        from engine.schedule import describe

        queued = 0
        if self.store.game_started(self.game.id) is None:
            with self.store.transaction():
                self.store.set_game_started(self.game.id, now)
                clock = self._period_clock(now)
                opening = periods.opening_report(
                    self.ruleset.NAME,
                    1,
                    clock.deadline(1),
                    commitment(self._period_key(1)),
                    describe(self.schedule),
                    secret_commitment=commitment(self._rules_secret),
                )
                queued += self._queue([opening], f"{self.game.id}/opening", "opening", now)
        if self.store.game_status(self.game.id) in ("paused", "finished"):
            return queued
        queued += self._remind(now)
        self._close_early_when_ready(now)
        clock = self._period_clock(now)
        for period in clock.periods_due(self._current_period() - 1, now):
            queued += self._resolve(period, now)
            if self._finished(self._state_before(period + 1)):
                queued += self._finish(now)
                break
            clock = self._period_clock(now)
        return queued

    @property
    def _rules_secret(self) -> bytes:
        """The key of the ruleset's secret dice (`secret/…` streams), published when the game ends."""
        return hmac.new(self.secret, f"secret|{self.game.id}|rules".encode(), hashlib.sha256).digest()

    def _finished(self, state: object) -> bool:
        finished = getattr(self.ruleset, "finished", None)
        return bool(finished and finished(state))

    def _finish_lines(self) -> list[Block]:
        from engine.periods import finish_blocks

        return finish_blocks(self._rules_secret)

    def _finish(self, now: datetime) -> int:
        """The game is over: no more periods, and the secret dice's key is published, once."""
        from engine.report import report

        with self.store.transaction():
            self.store.set_game_status(self.game.id, "finished")
            return self._queue(
                [report(*self._finish_lines(), kind="finish")], f"{self.game.id}/finished", "finish", now
            )

    def _remind(self, now: datetime) -> int:
        from engine import periods

        clock = self._period_clock(now)
        period = self._current_period()
        sent = [e for e in self.store.log_entries(self.game.id, ["reminder"]) if e.period == period]
        last_sent = datetime.fromisoformat(json.loads(sent[-1].args)["at"]) if sent else None
        due = clock.due_reminders(period, last_sent, now)
        if not due:
            return 0
        missing = self._missing_players(period)
        with self.store.transaction():
            self.store.log(self.game.id, "reminder", {"at": due[-1].at.isoformat()}, now, period=period)
            if not missing:
                return 0
            reminder = periods.reminder(period, clock.deadline(period), missing)
            return self._queue(
                [reminder], f"{self.game.id}/P{period}/remind/{due[-1].at.isoformat()}", "reminder", now
            )

    def _missing_players(self, period: int) -> list[str]:
        players = self.ruleset.players(self._state_before(period))
        if not players:
            return []
        sent = {o.player for o in self.store.orders(self.game.id, period, ["accepted"])}
        return [player for player in players if player not in sent]

    def _close_early_when_ready(self, now: datetime) -> None:
        if not self.schedule.early:
            return
        period = self._current_period()
        state = self._state_before(period)
        players = self.ruleset.players(state)
        if not players:
            return
        speaks_for = getattr(self.ruleset, "players_of", lambda state, author: [author])
        ready = {
            player
            for entry in self.store.log_entries(self.game.id, ["ready"])
            if entry.period == period
            for player in speaks_for(state, json.loads(entry.args)["player"])
        }
        already = any(e.period == period for e in self.store.log_entries(self.game.id, ["early"]))
        if set(players) <= ready and not already:
            with self.store.transaction():
                self.store.log(
                    self.game.id, "early", {"at": now.isoformat(), "why": "ready"}, now, period=period
                )

    def _period_key(self, period: int) -> bytes:
        return period_key(self.secret, self.game.id, f"P{period}")

    def _resolve(self, period: int, now: datetime) -> int:
        """Resolve one period, exactly once: the resolution and its report commit together."""
        from engine import periods
        from engine.rng import SeededSource, SplitSource
        from engine.ruleset import Order
        from store.db import ResolutionRecord

        state = self._state_before(period)
        rows = periods.effective_orders(
            periods.ReadOrder(
                o.post, o.line, o.author, o.player, o.period, o.text, o.canonical, o.order_key, o.status
            )
            for o in self.store.orders(self.game.id, period, ["accepted"])
        )
        orders = []
        for row in rows:
            parsed = self.ruleset.parse_line(row.canonical)
            if parsed is None or not hasattr(parsed, "command"):
                log.error("%s: stored order %r no longer parses; left out", self.game.id, row.canonical)
                continue
            orders.append(Order(row.post, row.line, row.author, row.player, parsed.command, row.canonical))
        assumed = []
        for player in self._missing_players(period):
            default = self.ruleset.missing(state, player)
            if default is not None:
                orders.append(Order(0, len(assumed), player, player, default.command, default.canonical))
                assumed.append((player, default.canonical))
        source = SplitSource(SeededSource(self._period_key(period)), SeededSource(self._rules_secret))
        new_state, inner = self.ruleset.resolve(state, orders, source)
        clock = self._period_clock(now)
        redo = sum(1 for e in self.store.log_entries(self.game.id, ["rollback"]) if e.period == period)
        final = periods.resolution_report(
            period,
            inner,
            key_hex=self._period_key(period).hex(),
            assumed=assumed,
            next_period=period + 1,
            next_deadline=clock.deadline(period + 1) if clock else None,
            next_commitment=commitment(self._period_key(period + 1)),
            redo=bool(redo),
        )
        base = f"{self.game.id}/P{period}/{redo}"
        with self.store.transaction():
            self.store.save_resolution(
                ResolutionRecord(
                    self.game.id,
                    period,
                    json.dumps(self.ruleset.state_to_dict(new_state), ensure_ascii=False),
                    f"{base}/0",
                    now.isoformat(),
                    len(orders),
                )
            )
            queued = self._queue([final], base, "resolution", now)
        log.info("%s: period %d resolved with %d order(s)", self.game.id, period, len(orders))
        return queued

    # -- GM commands ------------------------------------------------------------------------------

    def _gm(self, post: PostRecord, lines: list, now: datetime) -> tuple[Report | None, ThreadRef | None]:
        """Carry out a GM post's commands (inside the caller's transaction); the echo, and a new thread."""
        from engine.gm_actions import decide
        from engine.report import line, report
        from parser.gm import GmError

        author = self.author(post)
        period = self._current_period()
        where = {"period": period, "post": post.number, "thread_id": self.thread_id, "author": author}
        if post.trip not in self.game.gm_trips:
            earlier = [
                e
                for e in self.store.log_entries(self.game.id, ["refused"])
                if e.period == period and e.author == author
            ]
            self.store.log(self.game.id, "refused", {"lines": [g.raw[:100] for g in lines]}, now, **where)
            if earlier:
                return None, None  # one answer per poster per period, never a flood
            return report(
                line("GMのトリップではないため、GMコマンドは受け付けませんでした"),
                reply_to=(post.number,),
                kind="gm",
            ), None
        blocks: list[Block] = []
        follow: ThreadRef | None = None
        for gm_line in lines:
            command = gm_line.result
            if isinstance(command, GmError):
                blocks.append(line(f"【GM】{command.command}: {command.reason}"))
                continue
            effect = decide(command, self._game_view(now), now, self._setting_problem)
            shown, moved = self._apply(effect, post, now)
            follow = moved or follow
            self.store.log(
                self.game.id, "gm", {"command": command.canonical, "result": effect.text}, now, **where
            )
            blocks.extend(shown)
        return report(*blocks, reply_to=(post.number,), kind="gm"), follow

    def _game_view(self, now: datetime):
        from engine.gm_actions import GameView

        last = self.store.last_resolution(self.game.id)
        return GameView(
            period=self._current_period(),
            paused=self.store.game_status(self.game.id) == "paused",
            periodic=self.periodic,
            last_resolved=last.period if last else None,
            clock=self._period_clock(now),
        )

    def _setting_problem(self, path: str, value: str) -> str | None:
        if self.ruleset is None:
            return "このゲームには設定できる値がありません"
        try:
            self.ruleset.set_value(self._state_before(self._current_period()), path, value)
        except (ValueError, KeyError, TypeError) as error:
            return str(error)
        return None

    def _apply(self, effect, post: PostRecord, now: datetime) -> tuple[list[Block], ThreadRef | None]:
        """Write a GM command's effect to the log and the store; what to echo, and a thread to follow."""
        from engine.gm_actions import void_text
        from engine.report import line

        author = self.author(post)
        for entry in effect.log:
            where = {
                "period": entry.period,
                "post": post.number,
                "thread_id": self.thread_id,
                "author": author,
            }
            self.store.log(self.game.id, entry.kind, entry.args, now, **where)
        if effect.status is not None:
            self.store.set_game_status(self.game.id, effect.status)
        if effect.rollback is not None:
            self.store.delete_resolution(self.game.id, effect.rollback)
        text = effect.text
        follow: ThreadRef | None = None
        if effect.void:
            text = void_text(effect.void, *self._void_orders(effect.void))
        if effect.reveal is not None:
            try:
                self.queue_reveal(effect.reveal)
            except ValueError as error:
                text = f"公開できません: {error}"
        if effect.move_to is not None:
            try:
                follow = ThreadRef.from_url(effect.move_to)
            except NotAThreadURL as error:
                text = f"次スレに移れません: {error}"
        if effect.show_status:
            return self._status(now), None
        return [line(f"【GM】{text}")], follow

    def _void_orders(self, posts: tuple[int, ...]) -> tuple[int, list[int]]:
        """Void the orders of these posts of this thread; how many, and which resolved periods had them."""
        wanted = set(posts)
        last = self.store.last_resolution(self.game.id)
        voided, resolved = 0, []
        for order in self.store.orders(self.game.id, statuses=["accepted"]):
            if order.post in wanted and order.thread_id == self.thread_id:
                self.store.set_order_status(
                    order.game_id, order.thread_id, order.post, order.line, "voided", "GMにより無効"
                )
                voided += 1
                if last is not None and order.period <= last.period:
                    resolved.append(order.period)
        return voided, resolved

    def _status(self, now: datetime) -> list[Block]:
        """What 状態 shows: the period, its deadline, who has not sent orders, the ruleset's view."""
        from engine.periods import deadline_text
        from engine.report import line

        if self.ruleset is None:
            return [line(f"【GM】ダイス: {self.ref.read_url}")]
        period = self._current_period()
        state = self._state_before(period)
        if not self.periodic:
            return [line(f"【GM】{self.ruleset.NAME}・手番{period}"), *self.ruleset.status(state).blocks]
        clock = self._period_clock(now)
        deadline = clock.deadline(period) if clock else None
        paused = self.store.game_status(self.game.id) == "paused"
        parts = [
            f"ピリオド{period}",
            "停止中" if paused else f"締切 {deadline_text(deadline)}" if deadline else "締切未定",
        ]
        missing = self._missing_players(period)
        if missing:
            parts.append("未提出: " + "、".join(missing))
        return [line("【GM】" + "・".join(parts)), *self.ruleset.status(state).blocks]

    # -- threads ----------------------------------------------------------------------------------

    def _thread_full(self, note: str, now: datetime) -> str:
        self.store.set_thread_status(self.thread_id, "closed", note)
        pending = len(self.store.outbox(self.thread_id, ["pending", "sending"]))
        log.error("%s: the thread is closed (%s); %d answer(s) kept unsent", self.game.id, note, pending)
        if self.game.rollover_at or self.periodic:
            moved = self._roll_over(now, old_writable=False)
            return f"{note}; {moved}"
        return note

    def _roll_over(self, now: datetime, *, old_writable: bool) -> str:
        """Open the next part of the thread where the board allows, say so in the old one, move on."""
        from engine.report import line, report
        from poster import threads

        if self.rollover_retry is not None and now < self.rollover_retry[0]:
            return f"next thread: trying again at {self.rollover_retry[0]:%H:%M:%S}"
        title = threads.next_title(self.game.title or self._title())
        body = threads.first_post(self.ruleset.NAME if self.ruleset else "ダイス", self.ref.read_url)
        outcome = self.writer.new_thread(self.ref, title, body)
        if not outcome.posted or outcome.key is None:
            wait = ROLLOVER_RETRY if self.rollover_retry is None else self.rollover_retry[1] * 2
            wait = min(wait, ROLLOVER_RETRY_MAX)
            self.rollover_retry = (now + wait, wait)
            log.error(
                "%s: could not open the next thread (%s: %s); trying again in %d min",
                self.game.id,
                outcome.kind,
                outcome.message,
                wait.total_seconds() // 60,
            )
            if old_writable:  # once per thread (the outbox id): the GM can open it and say 次スレ
                self._queue(
                    [report(line(threads.open_failed_notice(board_reason(outcome.message))))],
                    f"{self.game.id}/{self.ref.key}/next-failed",
                    "next",
                    now,
                )
            return f"next thread not opened: {outcome.message}"
        self.rollover_retry = None
        target = self.ref.with_key(outcome.key)
        if old_writable:
            self._queue(
                [report(line(threads.moved_notice(target.read_url)))],
                f"{self.game.id}/{self.ref.key}/next",
                "next",
                now,
            )
            self.sender.send(
                self.ref, self.thread_id, self.store.thread(self.thread_id).last_number, self._others_after
            )
        self._move_to(target, "次スレ", now)
        return f"moved to {target.read_url}"

    def _title(self) -> str:
        first = self.store.post(self.thread_id, 1)
        return first.title if first and first.title else self.game.id

    def _move_to(self, target: ThreadRef, why: str, now: datetime) -> None:
        old = self.thread_id
        self.store.ensure_thread(target.id, target.read_url, str(target.dialect), self.game.id)
        with self.store.transaction():
            self.store.set_thread_status(old, "moved", f"{why}: {target.read_url}")
            self.store.retarget_outbox(old, target.id, prefix="前スレ")
            self.store.log(self.game.id, "next", {"from": old, "to": target.id}, now, thread_id=old)
        self.ref = target
        self.limits = None
        log.info("%s: now playing in %s", self.game.id, target.read_url)

    # -- secret rolls ------------------------------------------------------------------------------

    def queue_reveal(self, number: int) -> str:
        """Queue the post that opens post `number`'s secret rolls; returns what was queued, or raises
        ValueError with the reason (in Japanese) when there is nothing to reveal."""
        from engine.rules import dice

        post = self.store.post(self.thread_id, number)
        if post is None:
            raise ValueError(f">>{number} はまだ読み込んでいません")
        day = dice.period_of(post.date or self.clock())
        answer = dice.answer(self.ref.key, number, post.body, self._key(day), self._secret_keys(number))
        hidden = answer.meta.get("secret", {}) if answer is not None else {}
        if not hidden:
            raise ValueError(f">>{number} にシークレットダイスはありません")
        keys = {index: self._secret_keys(number)(index) for index in hidden}
        limits = self.limits or BoardLimits()
        bodies = render_posts(
            [dice.reveal(number, hidden, keys)], PostLimits(limits.lines, limits.chars, limits.columns)
        )
        with self.store.transaction():
            for index, body in enumerate(bodies):
                self.store.queue(
                    f"{self.game.id}/{self.ref.key}/reveal/{number}/{index}",
                    self.thread_id,
                    "reveal",
                    body,
                    self.clock(),
                )
        return "\n\n".join(bodies)


class Runner:
    """All games of a configuration under one APScheduler, until SIGINT or SIGTERM."""

    def __init__(
        self, bot: BotConfig, games: list[GameConfig], clock: Callable[[], datetime] | None = None
    ) -> None:
        bot.database.parent.mkdir(parents=True, exist_ok=True)
        self.store = Store(bot.database)
        self.session = make_session(bot.user_agent)
        self.bots = [
            ThreadBot(game, bot, self.store, self.session, clock or (lambda: datetime.now(JST)))
            for game in games
        ]
        self.scheduler = BackgroundScheduler(timezone=JST)
        self.stopping = threading.Event()

    def _job(self, thread_bot: ThreadBot) -> None:
        if not thread_bot.due(thread_bot.clock()):
            return
        try:
            result = thread_bot.tick()
        except Exception:  # a bug must not stop the other games or the next poll
            log.exception("%s: the poll failed", thread_bot.game.id)
            return
        if result.new_posts or result.sent or result.queued:
            log.info(
                "%s: read %s, %d new post(s), %d queued, %d sent %s",
                thread_bot.game.id,
                result.read,
                result.new_posts,
                result.queued,
                result.sent,
                result.note,
            )

    def start(self) -> None:
        for thread_bot in self.bots:
            self.scheduler.add_job(
                self._job,
                "interval",
                args=[thread_bot],
                seconds=min(thread_bot.game.poll_seconds, thread_bot.game.idle_seconds),
                next_run_time=datetime.now(JST),
                max_instances=1,
                coalesce=True,
                id=thread_bot.game.id,
            )
        self.scheduler.start()

    def run_until_signalled(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: self.stopping.set())
        self.start()
        self.stopping.wait()
        self.stop()

    def stop(self) -> None:
        log.info("stopping: waiting for the running poll to finish")
        self.scheduler.shutdown(wait=True)
        self.store.close()


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("apscheduler").setLevel(logging.DEBUG if verbose else logging.WARNING)


@main.command("run")
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-v", "--verbose", is_flag=True)
def run_command(config: Path, verbose: bool) -> None:
    """ボットを動かす (poll the configured threads and answer them until SIGINT/SIGTERM)."""
    _setup_logging(verbose)
    try:
        bot, games = load_config(config)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error
    runner = Runner(bot, games)
    for thread_bot in runner.bots:
        log.info(
            "%s: %s (%s) every %ss",
            thread_bot.game.id,
            thread_bot.ref.read_url,
            thread_bot.game.rules,
            thread_bot.game.poll_seconds,
        )
    runner.run_until_signalled()
    log.info("stopped")


def _load_thread(source: str, thread_key: str | None) -> tuple[list[Post], str]:
    """Posts of a thread from its URL, or from a saved dat, rawmode or read.cgi file."""
    from scraper.files import read_saved_thread, thread_key_in

    if source.startswith(("http://", "https://")):
        try:
            ref = ThreadRef.from_url(source)
            result = fetch(make_session(), ref, FetchState())
        except (NotAThreadURL, FetchError) as error:
            raise click.ClickException(str(error)) from error
        if result.outcome == "gone":
            raise click.ClickException(f"スレッドが見つかりません ({result.note})")
        return result.posts, thread_key or ref.key
    path = Path(source)
    if not path.is_file():
        raise click.ClickException(f"{source} はURLでもファイルでもありません")
    key = thread_key or thread_key_in(path.name)
    if key is None:
        raise click.ClickException("ファイル名からスレッドキーが分かりません。--key で指定してください")
    return read_saved_thread(path), key


@main.command("verify")
@click.argument("source")
@click.option("--key", "thread_key", help="Thread key, when a file's name does not hold it.")
@click.option(
    "--trip",
    "trips",
    multiple=True,
    help="The bot's trip (default: whoever posted 【ダイス検証】 or a game's 【… 開始】).",
)
@click.option(
    "--rules",
    "rules_id",
    type=click.Choice(sorted(ruleset_id for ruleset_id, target in RULESETS.items() if target)),
    help="The game's ruleset, for its period results (default: the one the opening 【NAME 開始】 names).",
)
def verify_command(source: str, thread_key: str | None, trips: tuple[str, ...], rules_id: str | None) -> None:
    """出目を検証する: スレの全ての出目を公開済みの鍵で再計算する (a thread URL or a saved dat/rawmode file)."""
    from engine.verify import ThreadPost, verify_thread
    from poster.markup import render_body

    def rules(name: str) -> Ruleset | None:
        if rules_id is not None:
            return load_ruleset(rules_id)
        known = (load_ruleset(ruleset_id) for ruleset_id in RULESETS)
        return next((ruleset for ruleset in known if ruleset is not None and name == ruleset.NAME), None)

    posts, key = _load_thread(source, thread_key)
    shown = [ThreadPost(p.number, p.trip, p.date, p.body) for p in posts if not p.deleted and not p.system]
    result = verify_thread(key, shown, render_body, [t.lstrip("◆") for t in trips] or None, rules)
    if result.bot_trips:
        click.echo("ボット: " + ", ".join(f"◆{trip}" for trip in result.bot_trips))
    if result.game:
        click.echo(f"ゲーム: {result.game}")
    click.echo(result.summary())
    if not result.ok:
        raise SystemExit(1)


@main.command("reveal")
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("number", type=int)
@click.option("--game", "game_id", help="The game's id (default: the only game of the configuration).")
def reveal_command(config: Path, number: int, game_id: str | None) -> None:
    """シークレットダイスを公開する: >>NUMBER の結果と鍵を、ボットの次の巡回で書き込む."""
    try:
        bot, games = load_config(config)
    except ConfigError as error:
        raise click.ClickException(str(error)) from error
    chosen = [g for g in games if game_id in (None, g.id)]
    if len(chosen) != 1:
        raise click.ClickException("--game でゲームを選んでください: " + ", ".join(g.id for g in games))
    bot.database.parent.mkdir(parents=True, exist_ok=True)
    store = Store(bot.database)
    try:
        queued = ThreadBot(chosen[0], bot, store, make_session(bot.user_agent)).queue_reveal(number)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()
    click.echo("次の巡回で書き込みます:\n" + queued)


DEMO_TITLE = "threadgm ダイス体験スレ"
DEMO_OPENING = """ここは threadgm の体験スレです。ダイスを書き込むとボットが答えます。
書き方の例（1行に1つ、いくつでも）:
dice2d47=
2D6>=7
choice[北海道,沖縄]
出目の表も振れます:
【通常戦闘ダイス】
dice1d5=
1.勝利
2.敗北
3.逃走
4.手を組む
5.相打ち"""


def _demo_thread(session: requests.Session, origin: str, data: Path, bot: BotConfig) -> str:
    """The demo thread's key: the one made before if it still exists, else a new one opened by the bot."""
    saved = data / "demo-thread.txt"
    if saved.exists():
        key = saved.read_text().strip()
        if session.get(f"{origin}/demo/dat/{key}.dat", timeout=5).status_code == 200:
            return key
    board = ThreadRef(Dialect.TWOCH, origin, "demo", "0000000000")
    outcome = BoardWriter(session, bot.name, bot.mail).new_thread(board, DEMO_TITLE, DEMO_OPENING)
    if not outcome.posted or outcome.key is None:
        raise click.ClickException(f"体験スレを立てられませんでした: {outcome.kind} {outcome.message}")
    saved.write_text(outcome.key)
    return outcome.key


@main.command("demo")
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 lets others on the LAN join.")
@click.option("--port", default=8380, show_default=True, type=int)
@click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=Path("var/demo"), show_default=True
)
def demo_command(host: str, port: int, data: Path) -> None:
    """体験: ローカル掲示板とダイスボットを起動する (the local board and the bot on a demo thread)."""
    from board.server import BoardServer, make_app

    _setup_logging(False)
    data.mkdir(parents=True, exist_ok=True)
    # A playground: none of the real boards' brakes (samba, 連投, スレッド立てすぎ).
    app = make_app(
        data / "board", ["demo"], defaults={"BBS_SAMBATIME": "0", "timeclose": "", "BBS_THREAD_TATESUGI": "0"}
    )
    try:
        server = BoardServer(app, host, port).start()
    except OSError as error:
        raise click.ClickException(
            f"ポート {port} を開けません（{error}）。--port で別の番号を指定してください"
        ) from error
    origin = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{server.port}"
    bot = BotConfig(name="ダイス係#threadgm-demo", mail="sage", database=data / "threadgm.sqlite")
    try:
        key = _demo_thread(make_session(bot.user_agent), origin, data, bot)
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


# -- offline simulation ---------------------------------------------------------------------------


@main.group("simulate")
def simulate_group() -> None:
    """ゲームを丸ごとシミュレーションする (whole games offline; one subcommand per ruleset)."""


@simulate_group.command("battle-royale")
@click.option(
    "--scenario",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Scenario TOML (default: the 47 prefectures, no special rules).",
)
@click.option("--runs", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Run r plays on sha256('simulate|SEED|r').")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def simulate_battle_royale_command(scenario: Path | None, runs: int, seed: str, as_json: bool) -> None:
    """都道府県バトロワ: 優勝率・1ゲームの戦闘数・ルール上の出来事の回数."""
    from engine.rules.battle_royale_scenario import parse_scenario_toml
    from engine.rules.battle_royale_sim import format_result, simulate

    try:
        data = parse_scenario_toml(_read_adjudicate_input(scenario)) if scenario is not None else {}
        result = simulate(data, runs, seed)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    click.echo(format_result(result, as_json=as_json))


if __name__ == "__main__":
    main()
