"""When the bot publishes a period's commitment and its key, and how that reads in a thread.

Commit–reveal for day periods: the hash of a day's key is published before the day begins (the
bot commits today's and tomorrow's on its first post, then tomorrow's each day), and the key itself
once the day is over and a grace time has passed (posts stamped just before midnight must be read
and answered first). A period that answers posts without an earlier commitment (the bot was down for
days) is committed in the same post as its first answers; `threadgm verify` then says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.keys import day_end, day_of, next_day
from engine.report import Report, heading, line, report

REVEAL_GRACE = timedelta(minutes=2)
HEADING = "ダイス検証"
KEY_LABEL = "鍵"
HASH_LABEL = "鍵のハッシュ(SHA-256)"


@dataclass(frozen=True)
class PeriodStatus:
    committed: bool
    revealed: bool


@dataclass(frozen=True)
class Disclosure:
    commit: tuple[str, ...] = ()
    reveal: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.commit or self.reveal)


def plan(
    statuses: Mapping[str, PeriodStatus],
    now: datetime,
    *,
    answering: Iterable[str] = (),
    grace: timedelta = REVEAL_GRACE,
) -> Disclosure:
    """What to publish now, given what was published, the time, and the periods being answered."""
    today = day_of(now)
    wanted = sorted({today, next_day(today), *answering})
    commit = tuple(p for p in wanted if not statuses.get(p, PeriodStatus(False, False)).committed)
    reveal = tuple(
        period
        for period, status in sorted(statuses.items())
        if status.committed and not status.revealed and day_end(period) + grace <= now
    )
    return Disclosure(commit, reveal)


def next_disclosure(now: datetime, grace: timedelta = REVEAL_GRACE) -> datetime:
    """When today's key may next be published (and tomorrow's hash with it): a poll is due then,
    whether or not anyone writes."""
    return day_end(day_of(now)) + grace


def disclosure_report(
    disclosure: Disclosure, keys: Mapping[str, bytes], commitments: Mapping[str, str]
) -> Report:
    """The verification lines: keys of closed periods, then hashes of coming ones."""
    lines = [line(f"{KEY_LABEL} {period}: {keys[period].hex()}") for period in disclosure.reveal]
    lines += [line(f"{HASH_LABEL} {period}: {commitments[period]}") for period in disclosure.commit]
    if disclosure.reveal:
        lines.append(line("threadgm verify でこのスレの出目を全て再計算できます"))
    return report(heading(HEADING), *lines, kind="disclosure")
