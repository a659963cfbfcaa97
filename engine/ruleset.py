"""The one shape every game ruleset has (BCDice's one-class-per-system, godip's pure adjudication).

A ruleset is a module (or object) with:
- `ID`, `NAME` (Japanese), `HELP` (Japanese: the rules as the bot applies them);
- `parse_line(line) -> OrderText | Rejection | None`: the order grammar it adds to the parser
  (None: not an order, just chat);
- `order_key(order) -> str`: orders with the same key in a period replace each other — the last
  one written wins (a player's guess; a unit's order);
- `immediate`: True when posts are answered at once through `apply` (dice, assisted play), False
  when orders wait for the period's `resolve`;
- `initial_state(scenario) -> State` from the GM's scenario (a TOML table);
- `parse_post(body) -> OrderText | Rejection | None` (immediate rulesets): the command a whole post
  holds (a dice template of assisted play), answered at once through `apply`;
- `apply(state, order, source) -> (State, Report)`: an immediate command (assisted steps); its
  dice come from the stream of the post, as verifiable as plain dice;
- `check(state, order) -> str | None` (optional): why an order cannot be taken from its author now
  (a unit that is not theirs, a unit that does not exist), for the receipt;
- `resolve(state, orders, source) -> (State, Report)`: a period's orders all at once, in posting
  order; never reads the clock, never does I/O;
- `players(state) -> list[str] | None`: who is expected to send orders (for reminders, the
  missing-order policy and early resolution), or None when anyone may play;
- `players_of(state, author) -> list[str]` (optional): the players a post's author speaks for,
  when players are not people (the islands of a naval game); by default the author alone;
- `missing(state, player) -> OrderText | None`: the order assumed for a player who sent none
  (None: nothing is done for them), stated in HELP;
- `settings`: the state paths the GM may change with 設定, each with a parser and help;
- `state_to_dict` / `state_from_dict`: plain JSON, so states can be stored and compared;
- `status(state) -> Report`: what 状態 posts;
- `finished(state) -> bool` (optional): the game is over; no more periods are resolved and the key
  of the ruleset's secret dice (streams named `secret/…`, see `engine.rng.SplitSource`) is published.

`Order` is what the periods machinery hands to `resolve`: the parsed command plus where it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from engine.report import Report
from engine.rng import RandomSource


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
    author: str  # who wrote it: name◆trip, or the ID when there is no trip
    player: str  # whose order it is (the author, unless the grammar says otherwise)
    command: Any
    canonical: str
    written_at: datetime | None = None


@dataclass(frozen=True)
class Setting:
    """A state path the GM may set with 設定 (e.g. `teams.A.name`)."""

    path: str
    help: str
    parse: Callable[[str], Any] = str


class Ruleset(Protocol):
    ID: str
    NAME: str
    HELP: str
    immediate: bool
    settings: Sequence[Setting]

    def parse_line(self, line: str) -> OrderText | Rejection | None: ...

    def order_key(self, order: Order) -> str: ...

    def initial_state(self, scenario: Mapping[str, Any]) -> Any: ...

    def apply(self, state: Any, order: Order, source: RandomSource) -> tuple[Any, Report]: ...

    def resolve(self, state: Any, orders: Sequence[Order], source: RandomSource) -> tuple[Any, Report]: ...

    def players(self, state: Any) -> list[str] | None: ...

    def missing(self, state: Any, player: str) -> OrderText | None: ...

    def set_value(self, state: Any, path: str, value: Any) -> Any: ...

    def state_to_dict(self, state: Any) -> dict: ...

    def state_from_dict(self, data: dict) -> Any: ...

    def status(self, state: Any) -> Report: ...


@dataclass
class Registry:
    """Rulesets by id, as the configuration names them."""

    rulesets: dict[str, Ruleset] = field(default_factory=dict)

    def add(self, ruleset: Ruleset) -> Ruleset:
        self.rulesets[ruleset.ID] = ruleset
        return ruleset

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(sorted(self.rulesets))
            raise KeyError(f"ルール {ruleset_id!r} はありません（使えるもの: {known}）") from None

    def ids(self) -> list[str]:
        return sorted(self.rulesets)
