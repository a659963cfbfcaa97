"""The one shape of every game: the core hooks every game has, each with its default (BCDice's `Base`:
a game system overrides only what it changes), and the two kinds of game.

A game is a folder under `engine/rules/` whose `__init__.py` exports an instance of a subclass of
`ClockedRuleset` (orders wait for the period boundary and are resolved all at once) or
`ImmediateRuleset` (a post is answered at once: plain dice, assisted play), registered with one line in
`engine/rules/__init__.py`. Rules never read the clock, and read no file but the game folder's own
packaged data (its `scenarios/`): they get a state, orders and a `RandomSource` and return a new state
and a markup-neutral `Report`. What only some games do (a
picture, GM settings, offline files, verification…) is a capability (`capabilities.py`) the game
names among its bases.

The types the periods machinery passes: `OrderText` (a line the grammar accepted), `Rejection` (a line
that looks like an order but cannot be one), `Order` (an accepted command with where it came from),
`Setting` (a state path the GM may change with 設定); `Author` and who may act for what are
`author.py`'s, the optional capabilities `capabilities.py`'s, the `Registry` `registry.py`'s.
"""

from __future__ import annotations

import sys
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar, final

from engine.report import Report, report
from engine.rng import RandomSource
from engine.ruleset.author import Author, Owners, may_act

S = TypeVar("S")  # the game's state
C = TypeVar("C")  # the game's command (what its grammar parses an order line into)


@dataclass(frozen=True)
class OrderText:
    """A line the grammar accepted: the typed command and its canonical spelling for receipts."""

    command: Any
    canonical: str
    player: str | None = None  # the player the order is for, when the grammar can tell (a unit's owner)


@dataclass(frozen=True)
class Rejection:
    """A line that looks like an order but cannot be one; `reason` is Japanese, for the receipt."""

    text: str
    reason: str


@dataclass(frozen=True)
class Order:
    post: int  # number of the post it came from (0 for an order the rules assumed)
    line: int  # its line in that post
    author: str  # who wrote it: name◆trip, or the bare name when there is no trip
    player: str  # whose order it is (the author, unless the grammar says otherwise)
    command: Any
    canonical: str
    written_at: datetime | None = None
    gm: bool = False  # the author's trip is one of the configuration's gm_trips (offline tools: the GM's)
    author_id: str | None = None  # the board's ID of the post, where it shows one (from the stored post)

    @property
    def by(self) -> Author:
        """Who wrote it, as the one rule of `may_act` reads an author, with the post's ID."""
        return Author.of(self.author, id=self.author_id, gm=self.gm)


@dataclass(frozen=True)
class Setting:
    """A state path the GM may set with 設定 (e.g. `teams.A.name`)."""

    path: str
    help: str
    parse: Callable[[str], Any] = str


class RulesetError(ValueError):
    """Input a game cannot use (a scenario, an orders file, a setting); the message is Japanese."""


class Ruleset(ABC, Generic[S, C]):
    """The core every game declares (at most twelve hooks; the rest are capabilities a game names among
    its bases, `capabilities.py`). Override what the game changes; every default below is a rule of its
    own that the game's HELP must name when players meet it (who plays, whose order replaces whose)."""

    ID: ClassVar[str]
    NAME: ClassVar[str]  # Japanese, as the opening post names the game
    HELP: ClassVar[str]  # Japanese: the rules as the bot applies them
    SUMMARY: ClassVar[str] = ""  # the order forms in a few lines, an example each (ヘルプ, the opening)
    TEMPLATE: ClassVar[str] = "template.toml"  # the scenario `threadgm new` writes, from scenarios/
    immediate: ClassVar[bool]

    # -- the scenario and the state -----------------------------------------------------------------

    def read_scenario(self, text: str) -> dict[str, Any]:
        """The scenario's TOML text as a table (a game may check it here). Default: plain TOML."""
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesetError(f"シナリオのTOMLが読めません：{error}") from error

    @final
    def template(self) -> str | None:
        """A ready-to-run scenario with every option, its default and meaning (`threadgm new`): the game
        folder's `scenarios/TEMPLATE` (a game declares the file, not this). None when it ships none."""
        package = sys.modules[type(self).__module__].__package__ or type(self).__module__
        path = resources.files(package) / "scenarios" / self.TEMPLATE
        return path.read_text(encoding="utf-8") if path.is_file() else None

    @abstractmethod
    def initial_state(self, scenario: Mapping[str, Any]) -> S:
        """The state the scenario's game begins in; RulesetError for a scenario the game cannot use."""

    @abstractmethod
    def state_to_dict(self, state: S) -> dict:
        """The state as JSON-ready data, the form the store keeps and `state_from_dict` reads back."""

    @abstractmethod
    def state_from_dict(self, data: dict) -> S:
        """The state `state_to_dict` wrote."""

    def status(self, state: S) -> Report:
        """What 状態 posts after the period line. Default: nothing more."""
        return report(kind="status")

    def finished(self, state: S) -> bool:
        """The game is over: no more periods, and the key of the secret dice is published. Default: never."""
        return False

    @final
    def summary(self) -> list[str]:
        """What ヘルプ answers and the opening post shows: SUMMARY, or else HELP's first lines (a game
        declares the text, not this)."""
        text = self.SUMMARY or "\n".join(self.HELP.strip().split("\n")[:6])
        return [line for line in text.split("\n") if line.strip()]

    # -- players and orders -------------------------------------------------------------------------

    def parse_line(self, line: str) -> OrderText | Rejection | None:
        """One line as an order of this game (None: chat) — a post's line, and the canonical form a
        stored order is read back from. Default: the game has no orders."""
        return None

    def order_key(self, order: Order) -> str:
        """Orders with the same key in a period replace each other, the last one written winning.
        Default: one order per player."""
        return order.player

    def check(self, state: S, order: Order) -> str | None:
        """Why an order cannot be taken from its author now (for the receipt), or None. Default: None."""
        return None

    def players(self, state: S) -> list[str] | None:
        """Who is expected to send orders (reminders, the missing-order policy, early close), or None
        when anyone may play. Default: None."""
        return None

    def owners(self, state: S, thing: str) -> Owners:
        """Who owns `thing` — a player's seat, a unit's island, a side, a country's area, a character:
        the game's own word for what an order acts for — as its scenario and state list them
        (`名前◆TRIP`, `◆TRIP` or bare names); `ANYONE` where the game's rules leave it open to every
        writer; empty where nobody owns it. Default: nothing is owned (a GM's alone)."""
        return ()

    @final
    def may_act_for(self, state: S, author: Author, thing: str) -> bool:
        """Whether `author` may act for `thing`: the one rule (`may_act`) over the game's `owners`.
        Games declare `owners` and never override this."""
        return may_act(author, self.owners(state, thing))


def result_data(outcome: Report) -> dict[str, Any]:
    """The structured result a resolution's report carries (`Report.meta["result"]`): what the picture
    of the period draws and `adjudicate --format json` prints; empty when it carries none."""
    data = outcome.meta.get("result")
    return dict(data) if isinstance(data, Mapping) else {}


class ClockedRuleset(Ruleset[S, C]):
    """A game of simultaneous orders: posts are read as orders, and at each period boundary `resolve`
    takes every order of the period at once, in posting order."""

    immediate: ClassVar[bool] = False

    @abstractmethod
    def resolve(self, state: S, orders: Sequence[Order], source: RandomSource) -> tuple[S, Report]:
        """A period: every order of it at once, in posting order, with the period's dice."""

    def resolve_timed(
        self, state: S, orders: Sequence[Order], source: RandomSource, deadline: datetime | None
    ) -> tuple[S, Report]:
        """`resolve`, told when the period's time was up: its deadline as the players were given it,
        before any 延長 of it (None when unknown, as offline), for rules that weigh the orders' post
        times against it (DH's 遅刻ペナルティ). The referee calls this. Default: `resolve`."""
        return self.resolve(state, orders, source)

    def period_status(self, state: S, orders: Sequence[Order]) -> Report:
        """What 状態 posts while a period runs, given the orders accepted in it so far (a game whose
        claims settle at the deadline counts them). Default: `status(state)`."""
        return self.status(state)


class ImmediateRuleset(Ruleset[S, C]):
    """A game answered post by post: `parse_post` finds the command a post holds and `apply` answers
    it at once, with the post's own dice streams (as verifiable as plain dice)."""

    immediate: ClassVar[bool] = True
    steps: ClassVar[bool] = True  # each answered post is a step (手番) that 巻き戻し can undo

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        """The command a whole post holds. Default: none (only dice are answered)."""
        return None

    def opening(self, state: S, source: RandomSource) -> tuple[S, Report] | None:
        """What the bot posts when it first sees the thread, before answering any post (what the
        game commits to, say), and the state it leaves; stored as step 1, with the dice of post 0.
        Default: None — no opening post (plain dice)."""
        return None

    @abstractmethod
    def apply(self, state: S, order: Order, source: RandomSource) -> tuple[S, Report]:
        """One post's command answered at once, with that post's dice streams."""

    def resolve(self, state: S, orders: Sequence[Order], source: RandomSource) -> tuple[S, Report]:
        """Offline replay (`adjudicate`): the posts' commands in order, each answered as `apply` would."""
        blocks: list = []
        for order in orders:
            state, answer = self.apply(state, order, source)
            blocks += answer.blocks
        return state, report(*blocks, kind="resolution")
