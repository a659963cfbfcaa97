"""One phase being resolved: the state it changes, its checks (判定) on verifiable streams, the lines
it reports and the deaths it settles (DP, 味方の精神減少).

Every check is one d100 on its own stream `dh/<phase>/<label>/<n>` under the period key (label: the
character who rolls, or 遅刻 / 増援; n counts that label's rolls in the phase from 1), success when the
face is at most the target; a target of 100 or more always succeeds and one of 0 or less always fails,
and neither is rolled. Picks (who loses an action for lateness, who comes as a reinforcement) roll a
die with as many sides as there are candidates on the same kind of stream (one candidate: no die).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.rng import RandomSource
from engine.rules.dh.geometry import Grid
from engine.rules.dh.state import Character, DHState

PURPOSE = "dh/{phase}/{label}/{n}"


@dataclass
class Check:
    """One 判定 (or a pick): who rolled, what for, the target, the face and the verdict."""

    label: str
    n: int
    what: str
    target: int
    face: int | None  # None: not rolled (the target is at or past an edge)
    ok: bool
    sides: int = 100
    phase: int = 0  # the phase whose stream it was rolled on

    @property
    def text(self) -> str:
        verdict = "成功" if self.ok else "失敗"
        if self.face is None:
            return f"{self.what} 目標{self.target}（自動{verdict}）"
        return f"{self.what} {self.face}/{self.target} {verdict}"

    @property
    def purpose(self) -> str:
        return PURPOSE.format(phase=self.phase, label=self.label, n=self.n)

    def to_dict(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "label": self.label,
            "n": self.n,
            "what": self.what,
            "sides": self.sides,
            "face": self.face,
            "target": self.target,
            "ok": self.ok,
        }


@dataclass
class Context:
    """The phase being resolved; the rules' functions get it and change its state."""

    state: DHState
    source: RandomSource
    lines: list[str] = field(default_factory=list)  # the report's lines of the part being resolved
    checks: list[Check] = field(default_factory=list)
    deaths: list[str] = field(default_factory=list)  # died in the step being resolved
    died: list[str] = field(default_factory=list)  # every death of the phase
    counts: dict[str, int] = field(default_factory=dict)
    again: list[str] = field(default_factory=list)  # 再行動 granted, shown after the action ends
    on_enter: Callable[[Character, str, str | None], None] | None = None  # fields and counters watching
    acted: set[str] = field(default_factory=set)  # who has acted this phase (condition 5)
    lost: set[str] = field(default_factory=set)  # who lost the action to 遅刻ペナルティ

    @property
    def grid(self) -> Grid:
        return self.state.grid

    @property
    def phase(self) -> int:
        return self.state.phase

    def say(self, text: str) -> None:
        self.lines.append(text)

    def _next(self, label: str) -> int:
        key = f"{self.phase}/{label}"
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]

    def check(self, label: str, what: str, target: int) -> Check:
        """A d100 check (判定) rolled by `label`: success on a face at most `target`."""
        n = self._next(label)
        if target >= 100 or target <= 0:
            result = Check(label, n, what, target, None, target >= 100, phase=self.phase)
        else:
            face = self.source.stream(PURPOSE.format(phase=self.phase, label=label, n=n)).roll(100)
            result = Check(label, n, what, target, face, face <= target, phase=self.phase)
        self.checks.append(result)
        return result

    def pick(self, label: str, what: str, count: int) -> int:
        """A die of `count` sides: the index (from 0) of the candidate chosen (one candidate: no die)."""
        if count == 1:
            return 0
        n = self._next(label)
        face = self.source.stream(PURPOSE.format(phase=self.phase, label=label, n=n)).roll(count)
        self.checks.append(Check(label, n, what, count, face, True, sides=count, phase=self.phase))
        return face - 1

    def entered(self, character: Character, square: str, came_from: str | None = None) -> None:
        """A character came into `square` from `came_from` (None: it appeared there)."""
        if self.on_enter is not None:
            self.on_enter(character, square, came_from)

    def character(self, name: str) -> Character:
        return self.state.characters[name]

    def damage(self, target: Character, amount: int) -> None:
        """体力 lost; at 0 the character dies (settled by `settle`)."""
        target.hp = max(0, target.hp - amount)
        if target.hp == 0:
            self.kill(target)

    def kill(self, target: Character) -> None:
        if target.alive and target.name not in self.deaths:
            target.hp = 0
            self.deaths.append(target.name)

    def settle(self) -> None:
        """The deaths of the step just resolved: off the map, DP to the enemy side, and every ally on
        the map loses 精神 (not below 0)."""
        options = self.state.options
        for name in self.deaths:
            dead = self.character(name)
            dead.alive, dead.square, dead.statuses = False, None, []
            self.died.append(name)
            enemy = self.state.enemy_of(dead.side)
            self.state.dp[enemy] = self.state.dp.get(enemy, 0) + options.dp_per_kill
            self.say(f"　{name} 死亡 → {enemy} DP+{options.dp_per_kill}")
            allies = [c for c in self.state.on_map() if c.side == dead.side]
            for ally in allies:
                ally.mind = max(0, ally.mind - options.ally_death_mind)
            if allies and options.ally_death_mind:
                names = "、".join(ally.name for ally in allies)
                self.say(f"　味方の精神減少 {options.ally_death_mind}: {names}")
        self.deaths = []
