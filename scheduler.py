"""threadgm's composition root: the command line, the configuration, the APScheduler jobs and the thin
bot loop of each game — fetch → referee → one transaction → send. The only module that knows every
layer; the rules of the games live in `engine/rules/`, the referee in `engine/referee/`.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import click
import requests
from apscheduler.schedulers.background import BackgroundScheduler

from board import cli as board_cli
from board import demo
from board.admin import open_thread
from board.server import BoardServer, make_app
from board.tripcode import name_and_trip
from engine import config, referee
from engine.cli import read_text, tool_commands
from engine.config import BotConfig, ConfigError, GameConfig
from engine.keys import JST, game_seed
from engine.referee import GameSetup, PostView, ThreadView
from engine.rules import REGISTRY
from engine.schedule import parse_schedule
from poster.markup import PostLimits, render_body
from poster.outbox import OutboxSender, SendResult, comparable, outbox_rows
from poster.rollover import Rollover
from poster.writer import BoardWriter
from scraper.fetch import USER_AGENT, FetchError, FetchState, fetch, first_post_identity, make_session
from scraper.post import Post
from scraper.refs import NotAThreadURL, ThreadRef
from scraper.settings import BoardLimits, fetch_limits
from scraper.sources import load_thread
from scraper.subject import still_listed
from store.db import PostRecord, Store

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
):
    main.add_command(_command)

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def load_config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file, checked against the registered games (ConfigError says where and why)."""
    bot, games = config.load_config(path, REGISTRY, _thread_url_problem)
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


# == the bot loop ================================================================================


def _record(thread_id: str, p: Post) -> PostRecord:
    return PostRecord(
        thread_id, p.number, p.name, p.trip, p.mail, p.date, p.id, p.body, p.raw, p.title, p.deleted, p.system
    )


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
        self.rollover = Rollover(game.id, store, self.writer, self.sender, game.title)
        self.limits: BoardLimits | None = None
        self.last_poll: datetime | None = None
        ruleset = REGISTRY.get(game.rules)
        self.setup = GameSetup(
            game.id,
            ruleset,
            record.secret,
            record.created_at,
            scenario=ruleset.read_scenario(read_text(game.scenario)) if game.scenario else {},
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
        if not self.setup.ruleset.immediate:
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
        first = self.store.post(self.thread_id, 1)  # a whole read must show it again: it is the thread
        known = first_post_identity(first) if first and not first.deleted else None
        state = FetchState(thread.size, thread.last_modified, thread.last_number, first_post=known)
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
            PostView(p.number, p.name, p.trip, p.date, p.body, p.poster_id)
            for p in self.store.unhandled_posts(self.thread_id)
        ]
        decisions = referee.poll(self.setup, self.thread, self.store, posts, now)
        return self.store.apply(self._rendered(decisions.changes, now)), decisions.move_to

    def _rendered(self, changes: list[tuple[str, dict]], now: datetime) -> list[tuple[str, dict]]:
        limits = self.limits or BoardLimits()
        return outbox_rows(
            changes, self.thread_id, PostLimits(limits.lines, limits.chars, limits.columns), now
        )

    # -- threads ----------------------------------------------------------------------------------

    def _thread_full(self, note: str, now: datetime) -> str:
        self.store.set_thread_status(self.thread_id, "closed", note)
        pending = len(self.store.outbox(self.thread_id, ["pending", "sending"]))
        log.error("%s: the thread is closed (%s); %d answer(s) kept unsent", self.game.id, note, pending)
        if self.game.rollover_at or not self.setup.ruleset.immediate:
            return f"{note}; {self._roll_over(now, old_writable=False)}"
        return note

    def _roll_over(self, now: datetime, *, old_writable: bool) -> str:
        what, target = self.rollover.open_next(
            self.ref, self.setup.ruleset.NAME, now, old_writable=old_writable, others_after=self._others_after
        )
        if target is not None:
            self.ref, self.limits = target, None
        return what

    def _move_to(self, target: ThreadRef, why: str, now: datetime) -> None:
        self.rollover.move(self.ref, target, why, now)
        self.ref, self.limits = target, None

    def refolded(self) -> dict[int, str]:
        """Every period's state folded again from the log (the stored snapshots are a cache)."""
        return referee.refold(
            referee.Game(self.setup, self.thread, referee.Ledger(self.store, self.game.id), self.clock())
        )

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
        self.session = make_session(bot.user_agent or USER_AGENT)
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
