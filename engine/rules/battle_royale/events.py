"""What happened during one step of the 都道府県バトロワ, as typed events that the report module renders.

Events are snapshots: every name in them is already in the form the thread may see at the moment it
happened (the hidden mastermind as 「正体のわからない何者か」), except `Died.name` and `Secret`, which
carry the truth for tests and the GM. A report is built from events alone, never from a later state,
so nothing that changes afterwards in the same step can leak backwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.battle_royale.tables import Table


@dataclass(frozen=True)
class DieRequest:
    """The die the rules need next: which seed table, for whom and why. `table.faces` are its lines."""

    table: Table
    base: str  # 基準 as the thread sees it ("" when the template has no 基準 line)
    subject: str  # an extra line saying whose die it is (a group, a region, members); may be ""
    reason: str  # why this table now (Japanese)
    purpose: str  # RNG stream purpose, e.g. "br/12/3"
    step: str  # the step kind
    secret: bool = False  # rolled by the bot alone and never posted (黒幕 set-up)

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def sides(self) -> int:
        return self.table.sides

    @property
    def count(self) -> int:
        return self.table.count

    @property
    def command(self) -> str:
        return self.table.command

    @property
    def note(self) -> str:
        return self.table.note


@dataclass(frozen=True)
class Rolled:
    request: DieRequest
    faces: tuple[int, ...]
    result: str  # the outcome line after "→"
    automatic: bool = False  # one possible outcome: decided without rolling


@dataclass(frozen=True)
class BattleStart:
    number: int
    kind: str  # "battle" | "infight" | "final"
    base: str
    opponent: str
    base_side: tuple[str, ...]
    opponent_side: tuple[str, ...]


@dataclass(frozen=True)
class Died:
    name: str  # truth, for tests and the GM
    label: str  # as the thread sees it
    cause: str
    again: bool = False  # the hidden mastermind "falls" once more: the thread sees only the unknown vanish


@dataclass(frozen=True)
class Said:
    """A line of narration (alliances, escapes, rerolls, groups dissolving...)."""

    text: str


@dataclass(frozen=True)
class Secret:
    """For the GM only (the mastermind's identity, lives, collaborators)."""

    text: str


@dataclass(frozen=True)
class Renumbered:
    rows: tuple[tuple[int, str], ...]
    why: str


@dataclass(frozen=True)
class Revealed:
    mastermind: str
    collaborators: tuple[str, ...]
    lives: int
    why: str


@dataclass(frozen=True)
class SurvivorTable:
    rows: tuple[tuple[str, ...], ...]  # number, name, group (単独 | 団体k) and region; or a team's
    header: tuple[str, ...]
    groups: tuple[str, ...]  # one line per group
    fallen: tuple[str, ...]
    revived: tuple[str, ...]
    remaining: int


@dataclass(frozen=True)
class Summary:
    battles: int
    remaining: int
    groups: tuple[str, ...]
    fallen: tuple[str, ...]  # elimination order
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Entrants:
    title: str
    rows: tuple[tuple[str, ...], ...]
    header: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class GameOver:
    kind: str  # "winner" | "mastermind" | "reconciled"
    winners: tuple[str, ...]
    team: str
    battles: int


Event = (
    Rolled
    | BattleStart
    | Died
    | Said
    | Secret
    | Renumbered
    | Revealed
    | SurvivorTable
    | Summary
    | Entrants
    | GameOver
)
