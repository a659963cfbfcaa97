"""A failing step is its post's problem, never the thread's.

Every step of a poll that runs a game's code on what a stranger wrote — a post's parse, receipt and
step, each GM command, the clock of a period — runs `isolated`: an unexpected exception forgets what
that step had decided (the `Ledger` goes back to its mark), is logged with the post number and the
traceback, and the poll goes on. The post is answered with a short error and marked handled with
the rest, so a restart never meets it again.

A period whose clock fails (its opening, reminder or resolution) is *held*: the hold is logged, the
GM is told in the thread once, and the period is tried again only after the GM's 設定, 巻き戻し or
無効 — a failing resolution is never retried on every poll.
"""

from __future__ import annotations

import logging
from types import TracebackType

from engine.referee.game import Game
from engine.report import Report, gm_line, line, report

log = logging.getLogger("threadgm")

INTERNAL_ERROR = "この書き込みは処理できませんでした（内部エラー、GMに通知済み）"
HOLD = "held"  # the log entry of a held period
LIFTS_HOLD = ("set", "rollback", "void")  # the GM's changes after which a held period is tried again


class isolated:
    """Run a step so that an exception undoes its decisions and is logged instead of raised."""

    def __init__(self, game: Game, what: str) -> None:
        self.game = game
        self.what = what
        self.error: str | None = None  # the exception, when the step raised one

    @property
    def failed(self) -> bool:
        return self.error is not None

    def __enter__(self) -> isolated:
        self._mark = self.game.book.mark()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool:
        if error is None or not isinstance(error, Exception):
            return False  # KeyboardInterrupt and the like still stop the bot
        self.game.book.restore(self._mark)
        log.error("%s: %s failed; answered as an internal error", self.game.id, self.what, exc_info=error)
        self.error = f"{type(error).__name__}: {error}"[:200]
        return True


def internal_error(number: int) -> Report:
    """The answer to a post whose processing raised."""
    return report(line(INTERNAL_ERROR), reply_to=(number,))


def is_held(game: Game, period: int) -> bool:
    """Whether `period` is held: its clock failed, and the GM has changed nothing since."""
    held = False
    for entry in game.book.log_entries([HOLD, *LIFTS_HOLD]):
        if entry.kind == HOLD:
            held = held or entry.period == period
        else:
            held = False
    return held


def hold(game: Game, period: int, step: isolated) -> None:
    """Hold `period` after its clock failed, and tell the GM in the thread (once per hold)."""
    count = sum(1 for e in game.book.log_entries([HOLD]) if e.period == period)
    game.book.log(HOLD, {"what": step.what, "error": step.error}, game.now, period=period)
    told = report(
        gm_line(
            f"ピリオド{period}の処理中に内部エラーが起きたため、更新を止めています。",
            "GMが 設定・巻き戻し・無効 のどれかをすると、もう一度処理します",
        ),
        kind="gm",
    )
    game.send(f"{game.id}/P{period}/held/{count}", "gm", told)
