"""threadgm's composition root: the command line, the configuration, the APScheduler jobs and the thin
bot loop of each game — fetch → referee → one transaction → send. The only module that knows every
layer; the rules of the games live in `engine/rules/`, the referee in `engine/referee/`.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from pathlib import Path

import click
import requests
from apscheduler.schedulers.background import BackgroundScheduler

from board import cli as board_cli
from board.server import BoardServer, make_app
from board.tripcode import name_and_trip
from engine import referee, tools
from engine.keys import JST, game_seed
from engine.post_dice import answer_post, roll_command
from engine.referee import GameSetup, PostView, ThreadView
from engine.report import Report, line, report
from engine.rng import DiceError, RecordedDice, RecordedSource, SeededSource, parse_rands
from engine.rules import REGISTRY
from engine.ruleset import Ruleset
from engine.schedule import ScheduleError, parse_schedule
from engine.verify import ThreadPost, verify_thread
from parser.gm_words import CANCEL_WORDS, READY_WORDS
from poster import threads
from poster.markup import PostLimits, render_body, render_posts
from poster.outbox import OutboxSender, SendResult, comparable
from poster.writer import BoardWriter, board_reason
from scraper.fetch import USER_AGENT, FetchError, FetchState, fetch, make_session
from scraper.files import read_saved_thread, thread_key_in
from scraper.post import Post
from scraper.refs import Dialect, NotAThreadURL, ThreadRef
from scraper.settings import BoardLimits, fetch_limits
from scraper.subject import still_listed
from store.db import PostRecord, Store

ROLLOVER_RETRY = timedelta(minutes=10)
ROLLOVER_RETRY_MAX = timedelta(hours=2)
log = logging.getLogger("threadgm")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """threadgm — スレッド進行GMボット (a game-master bot for Japanese text boards)."""


for _command in (board_cli.board_command, board_cli.board_admin, board_cli.trip_command):
    main.add_command(_command)


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise click.ClickException(f"{path} の文字コードが読めません（UTF-8 か Shift_JIS で保存してください）")


def _ruleset(game: str) -> Ruleset:
    try:
        return REGISTRY.get(game)
    except KeyError as error:
        raise click.ClickException(str(error.args[0])) from None


_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)

# -- the offline tools, generic over the registry -----------------------------------------------


@main.command("adjudicate")
@click.argument("game", type=click.Choice(REGISTRY.ids()))
@click.option("--scenario", type=_FILE, help="Scenario TOML (or --state).")
@click.option("--orders", required=True, type=_FILE, help="ORDERS.txt: one order per line, in posting order.")
@click.option("--randoms", type=_FILE, help="RANDOMS.txt: the published random numbers to use.")
@click.option("--seed", type=int, help="Draw the random numbers from this seed instead (default 0).")
@click.option("--state", "state_in", type=_FILE, help="Start from a state saved by --save-state.")
@click.option(
    "--save-state", type=click.Path(dir_okay=False, path_type=Path), help="Write the next state here."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def adjudicate_command(
    game: str,
    scenario: Path | None,
    orders: Path,
    randoms: Path | None,
    seed: int | None,
    state_in: Path | None,
    save_state: Path | None,
    fmt: str,
) -> None:
    """命令を一括処理して結果を表示する (offline GM preview of one period, with the bot's own rules)."""
    if randoms is not None and seed is not None:
        raise click.UsageError("--randoms と --seed はどちらか一方だけ指定してください")
    ruleset = _ruleset(game)
    try:
        state = tools.starting_state(
            ruleset, _read_text(scenario) if scenario else None, _read_text(state_in) if state_in else None
        )
        result = tools.adjudicate(
            ruleset,
            state,
            _read_text(orders),
            randoms_text=_read_text(randoms) if randoms else None,
            seed=seed,
        )
    except (ValueError, DiceError) as error:
        raise click.ClickException(str(error)) from error
    if save_state is not None:
        save_state.write_text(json.dumps(result.data["state"], ensure_ascii=False, indent=2), "utf-8")
    click.echo(
        json.dumps(result.data, ensure_ascii=False, indent=2) if fmt == "json" else result.report.plain
    )


@main.command("simulate")
@click.argument("game", type=click.Choice(REGISTRY.ids()))
@click.option("--scenario", type=_FILE, help="Scenario TOML (default: the game's packaged one).")
@click.option("--runs", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Run r plays on sha256('simulate|SEED|r').")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def simulate_command(game: str, scenario: Path | None, runs: int, seed: str, as_json: bool) -> None:
    """ゲームを丸ごとシミュレーションする (whole games played by themselves, offline)."""
    ruleset = _ruleset(game)
    try:
        data = ruleset.read_scenario(_read_text(scenario)) if scenario is not None else {}
        figures = ruleset.simulate(data, runs, seed, as_json=as_json)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    if figures is None:
        raise click.ClickException(f"{ruleset.NAME} はひとりでは進まないため、シミュレーションできません")
    click.echo(figures)


@main.command("help")
@click.argument("game", type=click.Choice(REGISTRY.ids()))
def help_command(game: str) -> None:
    """ゲームのルール（ボットが適用するとおり）を表示する."""
    click.echo(_ruleset(game).HELP)


@main.command("roll")
@click.option("--rands", help="Recorded faces SIDES:VALUE,... used in order instead of random dice.")
@click.option("--json", "as_json", is_flag=True, help="Print text, flags and rolls as JSON.")
@click.argument("command")
def roll_dice_command(rands: str | None, as_json: bool, command: str) -> None:
    """ダイスを振る: 1コマンドの返答を表示する (`-` reads a whole post from standard input)."""
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
    body = render_body(answer)
    secret = answer.meta.get("secret", {})
    click.echo(json.dumps({"text": body, "secret": secret}, ensure_ascii=False) if as_json else body)


# == configuration ===============================================================================


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

    @property
    def ruleset(self) -> Ruleset:
        return REGISTRY.get(self.rules)


def _check_game_table(table: dict, where: str) -> None:
    missing = {"id", "rules", "thread"} - set(table)
    if missing:
        raise ConfigError(f"{where}: {', '.join(sorted(missing))} がありません")
    unknown = set(table) - {f.name for f in fields(GameConfig)}
    if unknown:
        raise ConfigError(f"{where}: 知らない項目があります: {', '.join(sorted(unknown))}")
    if table["rules"] not in REGISTRY:
        raise ConfigError(
            f"{where}: rules = {table['rules']!r} はありません（使えるもの: {', '.join(REGISTRY.ids())}）"
        )
    try:
        ThreadRef.from_url(table["thread"])
    except NotAThreadURL as error:
        raise ConfigError(f"{where}: {error}") from error
    if table.get("read", "raw") not in ("raw", "html"):
        raise ConfigError(f"{where}: read は raw か html です")


def _game_config(table: dict, where: str, base: Path) -> GameConfig:
    _check_game_table(table, where)
    values = dict(table)
    for key in ("gm_trips", "cancel_words", "ready_words"):
        if key in values:
            values[key] = tuple(values[key])
    values["gm_trips"] = tuple(trip.strip().lstrip("◆") for trip in values.get("gm_trips", ()))
    if "scenario" in values:
        values["scenario"] = (base / values["scenario"]).resolve()
        if not values["scenario"].is_file():
            raise ConfigError(f"{where}: scenario のファイルがありません: {values['scenario']}")
    if not REGISTRY.get(table["rules"]).immediate:
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


# == the bot loop ================================================================================


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


def _thread_url_problem(url: str) -> str | None:
    try:
        ThreadRef.from_url(url)
    except NotAThreadURL as error:
        return str(error)
    return None


@dataclass
class TickResult:
    read: str = ""  # the fetch outcome
    new_posts: int = 0  # posts of others that arrived
    queued: int = 0
    sent: int = 0
    note: str = ""


class ThreadBot:
    """One game on its thread: read what is new, let the referee decide, store the decisions in one
    transaction, send what is owed, and move to the next thread when this one fills."""

    def __init__(
        self,
        game: GameConfig,
        bot: BotConfig,
        store: Store,
        session: requests.Session,
        clock: Callable[[], datetime] = lambda: datetime.now(JST),
    ) -> None:
        self.game = game
        self.store = store
        self.session = session
        self.clock = clock
        configured = ThreadRef.from_url(game.thread)
        store.ensure_thread(configured.id, game.thread, str(configured.dialect), game.id)
        fixed = game_seed(game.seed) if game.seed is not None else None
        record = store.game(game.id, game.rules, configured.id, clock(), secret=fixed)
        threads_of_game = store.threads_of_game(game.id)
        # After a rollover the game lives on in the newest thread it opened.
        self.ref = ThreadRef.from_url(threads_of_game[-1].url) if threads_of_game else configured
        self.name, self.trip = name_and_trip(bot.name)
        self.writer = BoardWriter(session, bot.name, bot.mail)
        self.sender = OutboxSender(store, self.writer, clock, self.is_own)
        self.limits: BoardLimits | None = None
        self.last_poll: datetime | None = None
        # After a refused new thread (スレッド立てすぎ on ex0ch lasts until others open threads), wait
        # before asking the board again; the wait doubles up to ROLLOVER_RETRY_MAX.
        self.rollover_retry: tuple[datetime, timedelta] | None = None
        ruleset = game.ruleset
        self.setup = GameSetup(
            game.id,
            ruleset,
            record.secret,
            record.created_at,
            scenario=ruleset.read_scenario(_read_text(game.scenario)) if game.scenario else {},
            schedule=parse_schedule(game.schedule) if not ruleset.immediate and game.schedule else None,
            dice=game.dice,
            gm_trips=game.gm_trips,
            cancel_words=game.cancel_words,
            ready_words=game.ready_words,
            thread_url_problem=_thread_url_problem,
        )

    @property
    def thread_id(self) -> str:
        return self.ref.id

    @property
    def thread(self) -> ThreadView:
        return ThreadView(self.ref.id, self.ref.key, self.ref.read_url)

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

    def _others_after(self, number: int) -> bool:
        return any(not post.own for post in self.store.posts_after(self.thread_id, number))

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
        if not self.game.ruleset.immediate:
            event = referee.next_event(self.setup, self.thread, self.store, now)
            if event is not None and event <= now:
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
            return self._gone(result.note)
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
        queued, follow = self._referee(now)
        last_number = result.state.last_number
        if result.complete:
            sent = self.sender.send(self.ref, self.thread_id, last_number, self._others_after)
        else:
            sent = SendResult(waiting="the read ended inside a post: sending after a whole read")
        tick = TickResult(
            result.outcome, sum(not post.own for post in fresh), queued, sent.sent, sent.waiting or ""
        )
        if follow is not None:
            self._move_to(ThreadRef.from_url(follow), "次スレ（GM）", now)
        elif sent.closed or last_number >= self.limits.res_max or any(post.system for post in result.posts):
            tick.note = self._thread_full(
                sent.closed or f"the thread reached its limit of {self.limits.res_max} posts", now
            )
        elif self.game.rollover_at and last_number + sent.sent >= self.limits.res_max - self.game.rollover_at:
            tick.note = self._roll_over(now, old_writable=True)
        return tick

    def _gone(self, note: str) -> TickResult:
        # One answer is not enough to give a game up: a proxy or a maintenance page can say 404 for a
        # moment. The board's own thread list decides.
        if still_listed(self.session, self.ref) is not False:
            log.warning(
                "%s: the board answered %s for the thread, but it may still be there (subject.txt lists "
                "it or could not be read); trying again next poll",
                self.game.id,
                note,
            )
            return TickResult(read="error", note=note)
        self.store.set_thread_status(self.thread_id, "gone", note)
        log.error(
            "%s: the thread is gone from the board (%s, and subject.txt no longer lists it); stopping "
            "this game",
            self.game.id,
            note,
        )
        return TickResult(read="gone", note=note)

    def _referee(self, now: datetime) -> tuple[int, str | None]:
        """The referee's decisions for the posts not yet handled, stored in one transaction."""
        posts = [
            PostView(p.number, p.name, p.trip, p.date, p.body)
            for p in self.store.unhandled_posts(self.thread_id)
        ]
        decisions = referee.poll(self.setup, self.thread, self.store, posts, now)
        return self.store.apply(self._rendered(decisions.changes, now)), decisions.move_to

    def _rendered(self, changes: list[tuple[str, dict]], now: datetime) -> list[tuple[str, dict]]:
        """The decisions with each report to post rendered under the board's limits, as outbox rows."""
        limits = self.limits or BoardLimits()
        out: list[tuple[str, dict]] = []
        for operation, arguments in changes:
            if operation != "post":
                out.append((operation, arguments))
                continue
            outgoing = arguments["outgoing"]
            bodies = render_posts(outgoing.reports, PostLimits(limits.lines, limits.chars, limits.columns))
            out += [
                (
                    "queue",
                    {
                        "outbox_id": f"{outgoing.base}/{index}",
                        "thread_id": self.thread_id,
                        "kind": outgoing.kind,
                        "body": body,
                        "now": now,
                    },
                )
                for index, body in enumerate(bodies)
            ]
        return out

    def _post(self, report_: Report, base: str, kind: str, now: datetime) -> int:
        outgoing = referee.Outgoing(base, kind, (report_,))
        return self.store.apply(self._rendered([("post", {"outgoing": outgoing})], now))

    # -- threads ----------------------------------------------------------------------------------

    def _thread_full(self, note: str, now: datetime) -> str:
        self.store.set_thread_status(self.thread_id, "closed", note)
        pending = len(self.store.outbox(self.thread_id, ["pending", "sending"]))
        log.error("%s: the thread is closed (%s); %d answer(s) kept unsent", self.game.id, note, pending)
        if self.game.rollover_at or not self.game.ruleset.immediate:
            moved = self._roll_over(now, old_writable=False)
            return f"{note}; {moved}"
        return note

    def _roll_over(self, now: datetime, *, old_writable: bool) -> str:
        """Open the next part of the thread where the board allows, say so in the old one, move on."""
        if self.rollover_retry is not None and now < self.rollover_retry[0]:
            return f"next thread: trying again at {self.rollover_retry[0]:%H:%M:%S}"
        title = threads.next_title(self.game.title or self._title())
        body = threads.first_post(self.game.ruleset.NAME, self.ref.read_url)
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
                notice = report(line(threads.open_failed_notice(board_reason(outcome.message))))
                self._post(notice, f"{self.game.id}/{self.ref.key}/next-failed", "next", now)
            return f"next thread not opened: {outcome.message}"
        self.rollover_retry = None
        target = self.ref.with_key(outcome.key)
        if old_writable:
            notice = report(line(threads.moved_notice(target.read_url)))
            self._post(notice, f"{self.game.id}/{self.ref.key}/next", "next", now)
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

    def queue_reveal(self, number: int) -> str:
        """Queue the post that opens post `number`'s secret rolls; returns what was queued, or raises
        ValueError with the reason (in Japanese) when there is nothing to reveal."""
        now = self.clock()
        game = referee.Game(self.setup, self.thread, referee.Ledger(self.store, self.game.id), now)
        referee.reveal(game, number)
        changes = self._rendered(game.book.changes, now)
        self.store.apply(changes)
        return "\n\n".join(arguments["body"] for _, arguments in changes)


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
    runner = Runner(bot, games)
    for thread_bot in runner.bots:
        game = thread_bot.game
        log.info("%s: %s (%s) every %ss", game.id, thread_bot.ref.read_url, game.rules, game.poll_seconds)
    runner.run_until_signalled()
    log.info("stopped")


def _load_thread(source: str, thread_key: str | None) -> tuple[list[Post], str]:
    """Posts of a thread from its URL, or from a saved dat, rawmode or read.cgi file."""
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
    help="The bot's trip (default: whoever posted 【ダイス検証】 or 【… 開始】).",
)
@click.option(
    "--rules",
    "rules_id",
    type=click.Choice(REGISTRY.ids()),
    help="The game's ruleset, for its period results (default: the one the opening 【NAME 開始】 names).",
)
def verify_command(source: str, thread_key: str | None, trips: tuple[str, ...], rules_id: str | None) -> None:
    """出目を検証する: スレの全ての出目を公開済みの鍵で再計算する (a thread URL or a saved dat/rawmode file)."""

    def rules(name: str) -> Ruleset | None:
        return REGISTRY.get(rules_id) if rules_id is not None else REGISTRY.by_name(name)

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


if __name__ == "__main__":
    main()
