"""One battle (合戦) of にじ野望, as arithmetic: initiative, the strike order, targets, multipliers,
casualties, rounds. Who fights and what follows from the outcome are `war.py`'s.

- **先攻 (initiative)**: each army (a country's contingent on one side) is ranked by its generals'
  values of the battlefield's stat (平地=統率 森林=武勇 山地=智略 雪地=政治): the best general first;
  on a tie the next-best generals are compared, an army that still has a general beats one that has
  none, and when both run out the next stat to the right (統率→武勇→智略→政治→統率) is compared the
  same way; a tie after every stat is settled by a 1D100 per tied army (`niji/initiative/<area>`).
- **攻撃順**: 先攻側の鉄砲→先攻側の弓兵→後攻側の鉄砲→後攻側の弓兵→先攻側の騎兵→先攻側の足軽→
  後攻側の騎兵→後攻側の足軽; with more than two armies, each phase (鉄砲・弓兵, then 騎兵・足軽) runs
  through the armies in initiative order (先攻, 次鋒, 三番手 …).
- **攻撃対象**: the enemy side's most numerous troop type (ties 足軽→騎兵→弓兵→鉄砲), and of that type
  the largest unit (ties: the earlier army in initiative order).
- **損害**: floor(soldiers × rate × multiplier), at most the target's soldiers; 鉄砲 ×2 against every
  type, 騎兵 ×2 against 足軽 and ×3 against 弓兵 and 鉄砲. A unit destroyed earlier does not strike.
- **rounds**: the eight steps repeat until one side has no soldiers, at most `max_rounds` times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from engine.rng import Dice
from engine.rules.nijiyabou.names import ARCHERS, ASHIGARU, CAVALRY, GUNS, MELEE, RANGED, STATS, TROOPS

ATTACK, DEFENSE = "攻め", "守り"
INITIATIVE_DIE = 100


def multiplier(striker: str, target: str) -> int:
    if striker == GUNS:
        return 2
    if striker == CAVALRY:
        return {ASHIGARU: 2, ARCHERS: 3, GUNS: 3}.get(target, 1)
    return 1


@dataclass
class Fighter:
    liver: str
    name: str
    troop: str
    soldiers: int
    stats: dict[str, int]
    origin: str  # the area it came from, where what is left of it returns
    role: str = ""  # 守備 / 救援 / 出陣 / 共同(自国) / 共同攻撃 / 下克上
    start: int = 0
    damage_by: dict[str, int] = field(default_factory=dict)  # country -> soldiers it killed here
    destroyed_by: str | None = None

    def __post_init__(self) -> None:
        self.start = self.soldiers


@dataclass
class Army:
    country: str
    side: str
    role: str  # 守備 / 救援 / 出陣 / 共同攻撃 / 下克上
    fighters: list[Fighter]

    def soldiers(self) -> int:
        return sum(f.soldiers for f in self.fighters)


@dataclass
class Fight:
    armies: list[Army]  # in initiative order after `fight`
    rounds: list[list[int]] = field(default_factory=list)  # per round: losses of each army
    strikes: list[dict] = field(default_factory=list)
    initiative_rolls: list[tuple[str, int]] = field(default_factory=list)

    def alive(self, side: str) -> bool:
        return any(a.soldiers() > 0 for a in self.armies if a.side == side)


def initiative_key(army: Army, stat: str) -> tuple[list[int], ...]:
    start = STATS.index(stat)
    order = STATS[start:] + STATS[:start]
    return tuple(sorted((f.stats[s] for f in army.fighters), reverse=True) for s in order)


def rank(armies: list[Army], stat: str, dice: Dice) -> tuple[list[Army], list[tuple[str, int]]]:
    """The armies in initiative order, and the dice a full tie took (country, face)."""
    keyed = sorted(enumerate(armies), key=lambda pair: initiative_key(pair[1], stat), reverse=True)
    rolls: list[tuple[str, int]] = []
    result: list[Army] = []
    index = 0
    while index < len(keyed):
        same = [keyed[index]]
        while index + len(same) < len(keyed) and initiative_key(
            keyed[index + len(same)][1], stat
        ) == initiative_key(keyed[index][1], stat):
            same.append(keyed[index + len(same)])
        if len(same) > 1:
            faces = []
            for position, army in same:
                face = dice.roll(INITIATIVE_DIE)
                rolls.append((army.country, face))
                faces.append((-face, position, army))
            result += [army for _, _, army in sorted(faces, key=lambda item: (item[0], item[1]))]
        else:
            result.append(same[0][1])
        index += len(same)
    return result, rolls


def _target(fight: Fight, side: str) -> tuple[int, Fighter] | None:
    enemies = [
        (i, f) for i, a in enumerate(fight.armies) if a.side != side for f in a.fighters if f.soldiers > 0
    ]
    if not enemies:
        return None
    totals = {troop: sum(f.soldiers for _, f in enemies if f.troop == troop) for troop in TROOPS}
    wanted = max(TROOPS, key=lambda troop: (totals[troop], -TROOPS.index(troop)))
    return max(
        (pair for pair in enemies if pair[1].troop == wanted), key=lambda pair: (pair[1].soldiers, -pair[0])
    )


def _strike(
    fight: Fight, army: Army, fighter: Fighter, rate: Fraction, least: int, round_losses: list[int]
) -> None:
    found = _target(fight, army.side)
    if found is None:
        return
    index, target = found
    kills = math.floor(fighter.soldiers * multiplier(fighter.troop, target.troop) * rate)
    kills = min(target.soldiers, max(kills, least))
    target.soldiers -= kills
    target.damage_by[army.country] = target.damage_by.get(army.country, 0) + kills
    if target.soldiers == 0 and target.destroyed_by is None:
        target.destroyed_by = army.country
    round_losses[index] += kills
    fight.strikes.append(
        {
            "round": len(fight.rounds) + 1,
            "country": army.country,
            "liver": fighter.name,
            "troop": fighter.troop,
            "soldiers": fighter.soldiers,
            "target": target.name,
            "target_troop": target.troop,
            "kills": kills,
        }
    )


def fight(
    armies: list[Army], stat: str, dice: Dice, rate: float, max_rounds: int, *, least: int = 0
) -> Fight:
    """Fight until one side has no soldiers, at most `max_rounds` rounds (`least`: the smallest loss
    of a strike, 1 for a 下克上 fought to the end)."""
    ordered, rolls = rank(armies, stat, dice)
    battle = Fight(ordered, initiative_rolls=rolls)
    fraction = Fraction(str(rate))
    while len(battle.rounds) < max_rounds and battle.alive(ATTACK) and battle.alive(DEFENSE):
        losses = [0] * len(ordered)
        for phase in (RANGED, MELEE):
            for army in ordered:
                for troop in phase:
                    for fighter in army.fighters:
                        if fighter.troop == troop and fighter.soldiers > 0:
                            _strike(battle, army, fighter, fraction, least, losses)
        battle.rounds.append(losses)
    return battle
