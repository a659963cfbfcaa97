"""What a game may do beyond its core, each a capability it opts into by naming the class among its
bases (`class NavalRuleset(ClockedRuleset[...], Pictured[...], VerifiesPeriods)`), and that the bot,
the game page and the tools look for with `isinstance` (or the small `…_of` helper beside it, which
says what a game without the capability gets) — never by a file-name convention.

| capability | hooks | used by |
|---|---|---|
| `Settable` | `settings`, `set_value(state, path, value)` | 設定 (`set_value_of`), the fold of the state |
| `ShowsOpening` | `rules_in_force(state)`, `opening_view(state)` | a clocked game's opening post |
| `ReadsWithState` | `read_line(state, line)` | order intake, reading with the game's own names |
| `AnnotatesReceipts` | `void(state, order, earlier)`, `remark(state, order, earlier)` | the receipt |
| `HoldsSeats` | `seats(state)`, `players_of(state, author)` | the start's warning, missing orders, 準備完了 |
| `AssumesOrders` | `missing(state, player)` | the period boundary (the missing-order policy) |
| `OfflineForms` | `read_orders(state, text)`, `recorded_source(state, text)` | `threadgm adjudicate`, case files |
| `Pictured` | `picture(state, result)` | the game page, `threadgm picture` |
| `Simulates` | `simulate(scenario, …)`, `simulate_from(state, …)` | `threadgm simulate` |
| `VerifiesPeriods` | `read_period(lines)`, `verify_period(key, result)` | `threadgm verify` (each period's report) |
| `VerifiesSteps` | `obeyed_as_gm(body, answer)`, `published_secrets(bot_bodies)` | `threadgm verify` (an immediate game's steps) |
| `AuditsPosts` | `audit_posts(bot_bodies)` | `threadgm verify` (the game's own commitments) |
| `ReplaysThread` | `replay_thread(thread, scenario)` | `threadgm verify --scenario` (results from orders) |
| `ImportsCharacters` | `import_character(text, owner)` | `threadgm import-character` |
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from engine.report import Block
from engine.rng import RandomSource, RecordedDice, RecordedSource, parse_rands
from engine.ruleset.base import Order, OrderText, Rejection, Ruleset, RulesetError, Setting

S = TypeVar("S")  # the game's state


# -- the table ------------------------------------------------------------------------------------


class Settable(ABC, Generic[S]):
    """A game whose GM may change state paths with 設定 PATH=VALUE."""

    settings: ClassVar[Sequence[Setting]] = ()  # the paths, with their help (ヘルプ, the docs)

    @abstractmethod
    def set_value(self, state: S, path: str, value: Any) -> S:
        """設定 PATH=VALUE: the state with the value set; RulesetError (Japanese) for a path or value
        the game cannot take."""


NOTHING_SETTABLE = "このゲームには設定できる値がありません"


def set_value_of(ruleset: Ruleset, state: Any, path: str, value: Any) -> Any:
    """設定 on any game: the game's own, or the refusal of a game with nothing to set."""
    if not isinstance(ruleset, Settable):
        raise RulesetError(NOTHING_SETTABLE)
    return ruleset.set_value(state, path, value)


class ShowsOpening(Generic[S]):
    """A clocked game whose opening post shows more than the order forms."""

    def rules_in_force(self, state: S) -> list[str]:
        """The options this game is played by, one short Japanese phrase each, for the opening post
        (players must know the table they play by). Default: none."""
        return []

    def opening_view(self, state: S) -> Sequence[Block]:
        """What the opening post shows of the starting position (a board game's map), after the order
        forms. Default: nothing."""
        return ()


# -- reading and receiving orders -------------------------------------------------------------------


class ReadsWithState(ABC, Generic[S]):
    """A game that reads a post's lines with its own words (names), so that a line which cannot be an
    order is answered with the nearest form instead of being taken for chat."""

    @abstractmethod
    def read_line(self, state: S | None, line: str) -> OrderText | Rejection | None:
        """One line of a post as it arrives, read with the running period's `state` (None offline).
        Its canonical form must read back to the same command with `parse_line`: a stored order is
        read back that way."""


def read_line_of(ruleset: Ruleset, state: Any, line: str) -> OrderText | Rejection | None:
    """A post's line read as the game reads it: with the state where the game wants it."""
    if isinstance(ruleset, ReadsWithState):
        return ruleset.read_line(state, line)
    return ruleset.parse_line(line)


class AnnotatesReceipts(Generic[S]):
    """A clocked game whose receipt weighs an accepted order against the period's earlier ones."""

    def void(self, state: S, order: Order, earlier: Sequence[Order]) -> str | None:
        """Why an order `check` took will not count, given the accepted orders of the same period
        written before it (DH: a second, different line for one character): the receipt refuses it
        with this reason, so it is not stored as accepted and a 準備完了 beside it does not close the
        period. Default: None."""
        return None

    def remark(self, state: S, order: Order, earlier: Sequence[Order]) -> str | None:
        """A word for the receipt on an accepted order, given the accepted orders of the same period
        written before it (e.g. it will not count if an earlier one is carried out). Default: none."""
        return None


class HoldsSeats(Generic[S]):
    """A game whose writers hold things beyond their own name: islands, sides, countries, characters."""

    def seats(self, state: S) -> Sequence[str]:
        """Every thing of the game someone may own, for the warning at start about what writers without
        a trip can act for. Default: the players."""
        assert isinstance(self, Ruleset)  # a capability of a game
        return self.players(state) or ()

    def players_of(self, state: S, author: str) -> list[str]:
        """The players a post's author speaks for (islands, countries). Default: the author alone."""
        return [author]


def seats_of(ruleset: Ruleset, state: Any) -> Sequence[str]:
    """What someone may own in this game: its seats, or else its players."""
    if isinstance(ruleset, HoldsSeats):
        return ruleset.seats(state)
    return ruleset.players(state) or ()


def players_of(ruleset: Ruleset, state: Any, author: str) -> list[str]:
    """The players a post's author speaks for: the game's word, or else the author alone."""
    return ruleset.players_of(state, author) if isinstance(ruleset, HoldsSeats) else [author]


class AssumesOrders(ABC, Generic[S]):
    """A clocked game with a missing-order policy: an order assumed for a player who sent none (its
    HELP says which; the period's report names the players and the orders assumed)."""

    @abstractmethod
    def missing(self, state: S, player: str) -> OrderText | None:
        """The order assumed for `player`, who sent none this period (None: nothing assumed)."""


# -- offline files ------------------------------------------------------------------------------------


class OfflineForms(Generic[S]):
    """A game whose offline files (`threadgm adjudicate`'s ORDERS.txt and RANDOMS.txt) have forms of
    its own; a game without it reads the plain ones (`plain_orders`, `plain_randoms`)."""

    def read_orders(self, state: S, text: str) -> list[Order]:
        """An ORDERS.txt, one order per line in posting order. Default: the plain form."""
        assert isinstance(self, Ruleset)  # a capability of a game
        return plain_orders(self, text)

    def recorded_source(self, state: S, text: str) -> RandomSource:
        """A RANDOMS.txt: the faces to use, in order. Default: the plain form."""
        return plain_randoms(text)


def plain_orders(ruleset: Ruleset, text: str) -> list[Order]:
    """The plain ORDERS.txt: one order per line in posting order, optionally `名前: order` (else the
    GM's); lines the grammar rejects are errors that name the line."""
    orders: list[Order] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        author, parsed = _order_line(ruleset, raw)
        if not isinstance(parsed, OrderText):
            why = parsed.reason if isinstance(parsed, Rejection) else "命令として読めません"
            raise RulesetError(f"{number}行目「{raw.strip()}」: {why}")
        player = parsed.player or author
        orders.append(Order(number, 0, author, player, parsed.command, parsed.canonical))
    return orders


def _order_line(ruleset: Ruleset, raw: str) -> tuple[str, OrderText | Rejection | None]:
    parsed = ruleset.parse_line(raw)
    head, sep, rest = raw.partition(":")
    if parsed is None and sep and head.strip():
        return head.strip(), ruleset.parse_line(rest.strip())
    return "GM", parsed


def plain_randoms(text: str) -> RandomSource:
    """The plain RANDOMS.txt: BCDice's `rands` form, `6:3,6:4,100:57` (commas or line breaks)."""
    try:
        pairs = parse_rands(text.replace("\n", ","))
    except ValueError as error:
        raise RulesetError(f"乱数ファイルが読めません：{error}") from error
    return RecordedSource(default=RecordedDice(pairs))


def orders_file(ruleset: Ruleset, state: Any, text: str) -> list[Order]:
    """An ORDERS.txt as the game reads it."""
    return (
        ruleset.read_orders(state, text) if isinstance(ruleset, OfflineForms) else plain_orders(ruleset, text)
    )


def randoms_file(ruleset: Ruleset, state: Any, text: str) -> RandomSource:
    """A RANDOMS.txt as the game reads it."""
    if isinstance(ruleset, OfflineForms):
        return ruleset.recorded_source(state, text)
    return plain_randoms(text)


# -- pictures, simulation, verification, characters ---------------------------------------------------


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


class VerifiesSteps:
    """An immediate game whose steps `verify` replays with help from what the bot posted."""

    def obeyed_as_gm(self, body: str, answer: Sequence[str]) -> bool:
        """Whether the bot's answer (its lines) shows it took the post's author for a GM — the post holds
        the game's own GM commands and the answer does not refuse them — so that `verify`, not told
        who the GMs were, replays the thread with the GMs the bot obeyed. Default: False."""
        return False

    def published_secrets(self, bot_bodies: Sequence[str]) -> Mapping[str, Sequence[tuple[int, int]]]:
        """For `verify`'s replay of the steps: the faces (sides, value) of every `secret/` stream the
        bot's posts (bodies in thread order) have published, by purpose after `secret/`. A secret
        stream must decide nothing the thread shows before it is published. Default: none."""
        return {}


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
