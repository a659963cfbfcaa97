"""Every key and stream name the bot derives from a game's secret seed, in one place.

- A game's seed is random (kept in the database) or fixed by the configuration (`seed = "…"`, for tests
  and replays): `game_seed(text)`.
- Period keys: `period_key(seed, game, period)` = HMAC-SHA256(seed, "period|GAME|PERIOD"), where PERIOD
  is a JST day (`2026-11-29`) for plain dice and `P1`, `P2`… for games on the clock; `commitment(key)`
  is what is published before the period's first roll.
- A post's streams: the i-th command of post N of thread KEY rolls on purpose `KEY/N/i`
  (`purpose_prefix`, `PrefixedSource`); an immediate game's step of post N on `KEY/N/rules/…`.
- Secret keys: a secret dice command has a key of its own, HMAC-SHA256(seed, "secret|GAME|KEY/N/i")
  (`secret_key`); a ruleset's secret dice (a hidden mastermind: purposes under `secret/`) use
  HMAC-SHA256(seed, "secret|GAME|rules") (`rules_secret`), published when the game ends.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone

from engine.rng import Dice, RandomSource

JST = timezone(timedelta(hours=9), "JST")


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def game_seed(fixed: str) -> bytes:
    """The seed of a game whose configuration fixes it (anyone knowing the text can predict the dice)."""
    return hashlib.sha256(f"threadgm-seed|{fixed}".encode()).digest()


def period_key(game_secret: bytes, game_id: str, period: str) -> bytes:
    """The key of one period of one game, derived so that revealing it reveals nothing else."""
    return _hmac(game_secret, f"period|{game_id}|{period}")


def clocked_period_key(game_secret: bytes, game_id: str, period: int) -> bytes:
    """The key of period n of a game on the clock (`P1`, `P2`, …)."""
    return period_key(game_secret, game_id, f"P{period}")


def commitment(key: bytes) -> str:
    """What is published before a period's first roll: SHA-256 of its key, in hex."""
    return hashlib.sha256(key).hexdigest()


def rules_secret(game_secret: bytes, game_id: str) -> bytes:
    """The key of a ruleset's secret dice (`secret/…` streams), published when the game ends."""
    return _hmac(game_secret, f"secret|{game_id}|rules")


# -- day periods (plain dice) --------------------------------------------------------------------


def day_of(moment: datetime) -> str:
    """The period of plain dice threads: the JST day, `2026-11-29`."""
    return moment.astimezone(JST).date().isoformat()


def next_day(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def day_end(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time(), JST)


# -- streams of a post ---------------------------------------------------------------------------


def purpose_prefix(thread_key: str, number: int) -> str:
    return f"{thread_key}/{number}/"


def secret_key(seed: bytes, game_id: str, thread_key: str, number: int, index: int) -> bytes:
    """The key of the secret dice command `index` of post `number` (BCDice's `S` prefix)."""
    return _hmac(seed, f"secret|{game_id}|{purpose_prefix(thread_key, number)}{index}")


class PrefixedSource:
    """A source whose purposes all start with `prefix` (the thread and post a command stands in)."""

    def __init__(self, inner: RandomSource, prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    def stream(self, purpose: str) -> Dice:
        return self.inner.stream(self.prefix + purpose)


class RoutedSource:
    """The period's streams, except the listed purposes, which roll with sources of their own."""

    def __init__(self, default: RandomSource, routes: Mapping[str, RandomSource]) -> None:
        self.default = default
        self.routes = routes

    def stream(self, purpose: str) -> Dice:
        return self.routes.get(purpose, self.default).stream(purpose)
