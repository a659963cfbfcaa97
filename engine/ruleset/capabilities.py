"""What a game may do beyond its core, each a capability it opts into by naming the class among its
bases (`class NavalRuleset(ClockedRuleset[...], Pictured[...], VerifiesPeriods)`), and that the bot,
the game page and the tools look for with `isinstance` — never by a file-name convention.

| capability | hooks | used by |
|---|---|---|
| `Pictured` | `picture(state, result)` | the game page, `threadgm picture` |
| `Simulates` | `simulate(scenario, …)`, `simulate_from(state, …)` | `threadgm simulate` |
| `VerifiesPeriods` | `read_period(lines)`, `verify_period(key, result)` | `threadgm verify` (each period's report) |
| `AuditsPosts` | `audit_posts(bot_bodies)` | `threadgm verify` (the game's own commitments) |
| `ReplaysThread` | `replay_thread(thread, scenario)` | `threadgm verify --scenario` (results from orders) |
| `ImportsCharacters` | `import_character(text, owner)` | `threadgm import-character` |
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")  # the game's state


@dataclass(frozen=True)
class ThreadAudit:
    """What a game's `audit_posts` compared: how many things, how many matched, the problems found."""

    checked: int
    matched: int
    problems: tuple[str, ...] = ()


class Pictured(ABC, Generic[S]):
    """A game drawn as a picture."""

    @abstractmethod
    def picture(self, state: S, result: Mapping[str, Any] | None = None) -> str:
        """The state as SVG text for the game page and `threadgm picture` (only what the thread may
        see); `result` is the structured result of the period that led to it, when known."""


class Simulates(ABC, Generic[S]):
    """A game that plays itself, for a GM weighing a scenario."""

    @abstractmethod
    def simulate(self, scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str:
        """`threadgm simulate`: whole games played by themselves."""

    def simulate_from(self, state: S, runs: int, seed: str, *, as_json: bool) -> str | None:
        """`threadgm simulate --from STATE.json`: games played on from a stored position (None: this
        game cannot). Default: None."""
        return None


class VerifiesPeriods(ABC):
    """A game whose period reports `threadgm verify` can recompute from the period's key."""

    @abstractmethod
    def read_period(self, lines: Sequence[str]) -> Mapping[str, Any] | None:
        """A period report as posted, read back into the structured result `verify_period` checks
        (the form of the resolution's `Report.meta["result"]`); None when it cannot be read."""

    @abstractmethod
    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        """Recompute from a period's key what its structured result says: the problems (Japanese,
        empty when all match)."""


class AuditsPosts(ABC):
    """A game with checks of its own over what the bot posted (a commitment against what it committed to)."""

    @abstractmethod
    def audit_posts(self, bot_bodies: Sequence[str]) -> ThreadAudit | None:
        """The game's checks of the bot's posts (bodies in thread order); None: nothing to check."""


class ReplaysThread(ABC):
    """A clocked game whose results `verify` recomputes from the thread's orders, given the scenario."""

    @abstractmethod
    def replay_thread(
        self,
        thread: Sequence[tuple[int, str, str, bool]],
        scenario: Mapping[str, Any],
        gm_trips: Sequence[str] | None = None,
    ) -> ThreadAudit | None:
        """(number, author, body, by the bot) of every post → each period's result compared;
        `gm_trips`: the GMs' (None: those the bot answered in the GM's voice, 【GM】)."""


class ImportsCharacters(ABC):
    """A game with characters another tool can export (ココフォリア's clipboard JSON, say)."""

    @abstractmethod
    def import_character(self, text: str, owner: str) -> str:
        """The character as the table to paste into this game's scenario, owned by `owner` (a trip, or
        "" for an NPC)."""


def picture_of(ruleset: object, state: Any, result: Mapping[str, Any] | None = None) -> str | None:
    """The game's picture, or None for a game that has none (the page shows `status` instead)."""
    return ruleset.picture(state, result) if isinstance(ruleset, Pictured) else None
