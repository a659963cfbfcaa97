"""What a GM command does to a game, decided without I/O: the echo, the log entries, the changes.

The game's log is the truth (architecture: everything derived from the log): a GM command adds
entries — `pause`, `resume`, `extend`, `early`, `rollback`, `set`, `void` — and the period clock,
the state and the orders are folded from them again. `decide` says what to add and change; the bot
applies it in the transaction that read the command, and echoes `Effect.echo` in the thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from engine.clock.periods import deadline_text
from engine.clock.schedule import EarlyClose, Extension, PeriodClock, Resume, ScheduleError
from engine.clock.schedule import Pause as ClockPause
from engine.clock.words import JST, format_moment
from engine.report import Span, anchor, plain_text
from parser import gm


@dataclass(frozen=True)
class GameView:
    """What a GM command is judged against."""

    period: int  # the current, unresolved period (or step)
    paused: bool
    periodic: bool  # the game has a period clock
    last_resolved: int | None
    clock: PeriodClock | None


@dataclass(frozen=True)
class LogEntry:
    kind: str
    args: dict
    period: int


@dataclass(frozen=True)
class Effect:
    says: str | tuple[str | Span, ...]  # the echo after the GM label ("": the command shows something else)
    log: tuple[LogEntry, ...] = ()
    status: str | None = None  # the game's new status (running | paused)
    rollback: int | None = None  # the resolution to drop
    void: tuple[int, ...] = ()  # posts whose orders no longer count
    reveal: int | None = None  # post whose secret rolls to open
    move_to: str | None = None  # the thread to follow
    show_status: bool = False

    @property
    def echo(self) -> tuple[str | Span, ...]:
        return (self.says,) if isinstance(self.says, str) else self.says

    @property
    def text(self) -> str:
        """The echo as bare text, for the game's log."""
        return plain_text(self.echo)


def decide(
    command: gm.GmCommand,
    view: GameView,
    now: datetime,
    validate_set: Callable[[str, str], str | None],
) -> Effect:
    """The effect of one GM command; `validate_set(path, value)` says why a 設定 cannot be made."""
    if isinstance(command, gm.Status):
        return Effect("", show_status=True)
    if isinstance(command, gm.Reveal):
        return Effect((anchor(command.post), " のシークレットダイスを公開します"), reveal=command.post)
    if isinstance(command, gm.NextThread):
        entry = LogEntry("next", {"url": command.url}, view.period)
        return Effect(f"次スレに移ります: {command.url}", (entry,), move_to=command.url)
    if isinstance(command, gm.Void):
        return Effect(
            "", (LogEntry("void", {"posts": list(command.posts)}, view.period),), void=command.posts
        )
    if isinstance(command, gm.SetValue):
        problem = validate_set(command.path, command.value)
        if problem:
            return Effect(f"設定できません: {command.path}: {problem}")
        entry = LogEntry("set", {"path": command.path, "value": command.value}, view.period)
        return Effect(f"設定しました: {command.path}={command.value}（{_when(view)}から）", (entry,))
    if isinstance(command, gm.Rollback):
        return _rollback(command, view, now)
    if not view.periodic or view.clock is None:
        return Effect(f"{command.canonical}: このゲームには更新時刻がありません")
    try:
        return _clock_command(command, view, now)
    except ScheduleError as error:  # the clock cannot take it (a resume at the very moment of the pause)
        return Effect(f"{command.canonical}: {error}")


def _when(view: GameView) -> str:
    return f"ピリオド{view.period}" if view.periodic else "次の手番"


def _rollback(command: gm.Rollback, view: GameView, now: datetime) -> Effect:
    if view.last_resolved is None:
        return Effect("巻き戻すものがありません")
    undone = view.last_resolved
    entries = [LogEntry("rollback", {"redo": command.redo}, undone)]
    if not view.periodic:
        return Effect(
            f"手番{undone}を巻き戻しました（次の書き込みはその前から続きます）",
            tuple(entries),
            rollback=undone,
        )
    what = f"ピリオド{undone}"
    if command.redo:
        return Effect(f"{what}を巻き戻しました。再処理します", tuple(entries), rollback=undone)
    entries.append(LogEntry("pause", {"at": now.isoformat()}, undone))
    return Effect(
        f"{what}を巻き戻しました。停止中です（再開で再処理します）", tuple(entries), "paused", rollback=undone
    )


def _clock_command(command: gm.GmCommand, view: GameView, now: datetime) -> Effect:
    assert view.clock is not None
    period = view.period
    at = {"at": now.isoformat()}
    if isinstance(command, gm.Pause):
        if view.paused:
            return Effect("すでに停止しています")
        return Effect(
            f"停止しました（ピリオド{period}の締切の時計を止めます）",
            (LogEntry("pause", at, period),),
            "paused",
        )
    if isinstance(command, gm.Resume):
        if not view.paused:
            return Effect("停止していません")
        resumed = view.clock.with_adjustments(Resume(now), resolved_up_to=period - 1)
        deadline = resumed.deadline(period)
        shown = deadline_text(deadline) if deadline else "未定"
        return Effect(
            f"再開しました（ピリオド{period}の締切 {shown}）", (LogEntry("resume", at, period),), "running"
        )
    if isinstance(command, gm.Extend):
        return _extend(command, view, now)
    if isinstance(command, gm.ResolveNow):
        if view.paused:
            return Effect("停止中です。再開してから即時更新してください")
        return Effect(f"ピリオド{period}を即時更新します", (LogEntry("early", {**at, "why": "gm"}, period),))
    return Effect(f"{command.canonical}: このゲームでは使えません")


def _extend(command: gm.Extend, view: GameView, now: datetime) -> Effect:
    assert view.clock is not None
    period = view.period
    current = view.clock.deadline(period)
    if command.duration is not None:
        value = command.duration
    else:
        # A bare time is the next one after the deadline (延長 22:00 moves it later); a time on a named
        # day is that day's, judged from now (延長 12/01 20:30 is this 12/01, even before the deadline)
        value = command.at.next_after(now if command.at.dated else current or now)
    if value is None:
        return Effect(f"{command.canonical}: その時刻はもう過ぎています")
    try:
        extension = view.clock.extension(period, value, now=now)
        view.clock.with_adjustments(extension, resolved_up_to=period - 1)
    except (ScheduleError, ValueError) as error:
        return Effect(f"{command.canonical}: {error}")
    entry = LogEntry(
        "extend", {"at": now.isoformat(), "deadline": extension.new_deadline.isoformat()}, period
    )
    new = extension.new_deadline
    # a deadline in another year than today's is written with its year: 12/01 alone would read as this one
    shown = (
        deadline_text(new)
        if new.astimezone(JST).year == now.astimezone(JST).year
        else format_moment(new, year=True)
    )
    return Effect(f"延長しました（ピリオド{period}の締切 {shown}）", (entry,))


def void_echo(posts: Iterable[int], voided: int, resolved_periods: Iterable[int]) -> tuple[str | Span, ...]:
    """What 無効 says: the posts (as anchors), how many orders, and which resolved periods had them."""
    parts: list[str | Span] = ["無効にしました: "]
    for index, number in enumerate(sorted(posts)):
        parts += [" "] * bool(index) + [anchor(number)]
    parts.append(f"（命令 {voided} 件）")
    done = sorted(set(resolved_periods))
    if done:
        parts.append(f"。ピリオド{'、'.join(map(str, done))}は処理済みです（巻き戻しで再処理できます）")
    return tuple(parts)


def void_text(posts: Iterable[int], voided: int, resolved_periods: Iterable[int]) -> str:
    return plain_text(void_echo(posts, voided, resolved_periods))


def clock_adjustments(entries: Iterable[tuple[str, dict, int | None]]) -> list:
    """The period clock's adjustments folded from the game's log (kind, args, period), in order."""
    adjustments: list = []
    for kind, args, period in entries:
        if kind == "pause":
            adjustments.append(ClockPause(datetime.fromisoformat(args["at"])))
        elif kind == "resume":
            adjustments.append(Resume(datetime.fromisoformat(args["at"])))
        elif kind == "extend":
            adjustments.append(Extension(period, datetime.fromisoformat(args["deadline"])))
        elif kind == "early":
            adjustments.append(EarlyClose(period, datetime.fromisoformat(args["at"])))
    return adjustments
