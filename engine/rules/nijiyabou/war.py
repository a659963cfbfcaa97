"""出陣・合戦 of one season (§8, §11): which sorties stand, who joins them, who relieves whom, the
battles, and what passes to the victor.

1. A sortie stands when its area has the livers it names, in that area, not moved this season, with
   soldiers (a zero-troop liver cannot sortie), its country is not surrendering (降伏する), and the
   target is an adjacent area of another country. Without units named it takes the area's designated
   units (編成).
2. **An area attacked while it sorties loses its sortie** (joint attacks and relief too): judged on
   the sorties declared, so two areas attacking each other both lose theirs.
3. **共同攻撃**: one unit from another adjacent own area (`共同 AREA LIVER` in the sortie), and one
   unit of an ally (`外交 共同攻撃`) on an allied sortie's target; a country without an ally gets none.
4. **救援**: for each attacked area, the designated relief unit of one adjacent own area and of one
   adjacent allied area (the largest; ties 武勇 → 統率 → 智略), each unit to one battle only: own
   battles before allied ones, the most disadvantaged area first (its led soldiers less the
   attackers', the smallest first).
5. The battles (`battle.py`), then for each: **占領** when the defending side (the attacked units and
   their relief) is wiped out — by the surviving sortie army with the highest initiative, and by an
   allied joint army only when every sortie army is wiped out too. Survivors of sorties, joint attacks
   and relief return to their areas (出陣した部隊は一旦撤退). The liver of a destroyed unit serves the
   country that did it the most damage (ties: the one that destroyed it); a lord who changes country
   brings the whole country with him. Reserve troops, livers and 国力 of an occupied area pass to the
   occupier; a turncoat there that the occupier was betrayed by is 処断.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.rng import RandomSource
from engine.rules.nijiyabou import changes
from engine.rules.nijiyabou.battle import ATTACK, DEFENSE, Army, Fight, Fighter, fight
from engine.rules.nijiyabou.grammar import AreaOrder
from engine.rules.nijiyabou.home import Moved
from engine.rules.nijiyabou.names import LEAD, VALOR, WIT, key
from engine.rules.nijiyabou.state import State

GUARD, RELIEVE, SORTIE_ROLE, OWN_JOINT, ALLY_JOINT = "守備", "救援", "出陣", "共同(自国)", "共同攻撃"


@dataclass
class Sortie:
    order: AreaOrder
    country: str
    units: list[tuple[str, str, int]]  # liver key, troop, soldiers
    joint: tuple[str, str, str, int] | None = None  # area, liver key, troop, soldiers
    cancelled: str | None = None


@dataclass
class Battle:
    area: str
    defender: str | None
    fight: Fight | None = None
    occupier: str | None = None
    relief: list[tuple[str, str]] = field(default_factory=list)  # (area, liver key)
    captured: list[tuple[str, str]] = field(default_factory=list)  # (liver key, country)
    executed: list[str] = field(default_factory=list)


@dataclass
class War:
    sorties: list[Sortie] = field(default_factory=list)
    refused: list[tuple[AreaOrder, str]] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)


def unit_of(state: State, area: str, liver: str, moved: Moved) -> tuple[str, int] | None:
    """The unit `liver` leads in `area` (troop, soldiers) when it can fight away from home: neither
    the liver nor the soldiers moved this season (§7)."""
    troop = state.lead_type(area, liver)
    found = state.livers.get(liver)
    if troop is None or found is None or found.area != area or liver in moved:
        return None
    soldiers = moved.ready(state, area, troop)
    return (troop, soldiers) if soldiers > 0 else None


def sortie_units(
    state: State, order: AreaOrder, moved: Moved
) -> tuple[list[tuple[str, str, int]], list[str]]:
    """The units of a sortie that go (liver key, troop, soldiers) and why each other one does not:
    those named, else every designated unit with soldiers. A unit the rules forbid stays home and the
    rest go (§11 「出陣の時に同時に兵力・部隊零の武将を出陣させること…はできません」, §7 「移動した部隊は
    そのターンには出陣・救援できません」)."""
    area = state.areas[order.area]
    named = [(u.liver, u.troop, u.amount) for u in order.units] or [
        (state.livers[who].name, troop, None) for troop, who in area.leads.items() if area.troops[troop] > 0
    ]
    units: list[tuple[str, str, int]] = []
    problems: list[str] = []
    for name, troop, amount in named:
        liver = state.liver(name)
        ready = moved.ready(state, order.area, troop)
        if liver is None or liver.area != order.area:
            problems.append(f"{name}は{order.area}にいません")
        elif key(name) in moved:
            problems.append(f"{name}はこの季節に移動したため出陣できません")
        elif area.troops[troop] <= 0 or amount == 0:
            problems.append(f"{name}の{troop}は兵力0のため出陣できません")
        elif ready <= 0:
            problems.append(f"{order.area}の{troop}はこの季節に移動してきた兵だけのため出陣できません")
        elif amount is not None and amount > ready:
            problems.append(
                f"{order.area}の{troop}で出陣できるのは{ready}までです（{name}の{troop}{amount}）"
            )
        else:
            units.append((key(name), troop, ready if amount is None else amount))
    if not named:
        problems.append(f"{order.area}には出陣できる部隊がありません（編成で率いる兵種を決めてください）")
    return units, problems


def _joint_unit(state: State, country: str, joint: tuple[str, str], target: str, moved: Moved) -> tuple | str:
    area, name = joint
    if state.areas[area].owner != country:
        return f"共同攻撃の{area}は自国のエリアではありません"
    if target not in state.neighbours(area):
        return f"{area}は{target}に隣接していないため共同攻撃を送れません"
    unit = unit_of(state, area, key(name), moved)
    if unit is None:
        return f"{name}は{area}で兵のいる部隊を率いていないか、移動したため共同攻撃できません"
    return (area, key(name), *unit)


def declare(state: State, orders: list[AreaOrder], moved: Moved, yielding: set[str]) -> War:
    """Step 1–2: the sorties that stand, then those cancelled because their area is attacked
    (`yielding`: the areas of countries that sent 降伏する)."""
    war = War()
    for order in orders:
        country = state.areas[order.area].owner or ""
        problem = _sortie_problem(state, order, country, yielding)
        units: list[tuple[str, str, int]] | str
        if problem is not None:
            units = problem
        else:
            units, left_home = sortie_units(state, order, moved)
            if not units:
                units = "、".join(left_home)
            else:
                war.refused += [(order, f"{why}（ほかの部隊は出陣）") for why in left_home]
        joint = None
        if not isinstance(units, str) and order.joint is not None:
            joint = _joint_unit(state, country, order.joint, order.target or "", moved)
            if isinstance(joint, tuple) and joint[0] == order.area:
                joint = "共同攻撃は自国の別のエリアからです"
            units = joint if isinstance(joint, str) else units
        if isinstance(units, str):
            war.refused.append((order, units))
            continue
        war.sorties.append(Sortie(order, country, units, joint if isinstance(joint, tuple) else None))
    attacked = {s.order.target for s in war.sorties}
    for sortie in war.sorties:
        if sortie.order.area in attacked:
            sortie.cancelled = f"{sortie.order.area}が攻められたため出陣は取りやめ"
        elif sortie.joint and sortie.joint[0] in attacked:
            sortie.joint = None
            war.refused.append((sortie.order, f"{sortie.order.joint[0]}が攻められたため共同攻撃は取りやめ"))
    return war


def _sortie_problem(state: State, order: AreaOrder, country: str, yielding: set[str]) -> str | None:
    if order.area in yielding:
        return "降伏する国はその季節は出陣できません"
    target = order.target or ""
    if target not in state.sortie_targets(order.area) or state.areas[target].owner == country:
        return f"{target}は{order.area}に隣接する他国のエリアではありません"
    if not state.livers_in(order.area):
        return "ライバー不在のエリアでは出陣できません"
    return None


def standing(war: War) -> list[Sortie]:
    return [s for s in war.sorties if s.cancelled is None]


def attacked_areas(war: War) -> set[str]:
    return {s.order.target or "" for s in war.sorties}


# -- relief ------------------------------------------------------------------------------------------


def _relief_candidates(state: State, target: str, war: War, moved: Moved, used: set[str]) -> list[tuple]:
    attacked, busy = attacked_areas(war), _busy(war)
    found = []
    for area in state.neighbours(target):
        where = state.areas[area]
        who = where.relief
        if who is None or area in attacked or who in busy or area in used or where.owner is None:
            continue
        unit = unit_of(state, area, who, moved)
        if unit is not None and (area, unit[0]) not in _taken(war):
            stats = state.livers[who].stats
            found.append(((unit[1], stats[VALOR], stats[LEAD], stats[WIT]), area, who, where.owner, unit))
    return found


def _taken(war: War) -> set[tuple[str, str]]:
    """(area, troop type) already out with a standing sortie or joint attack."""
    taken = {(s.order.area, troop) for s in standing(war) for _, troop, _ in s.units}
    return taken | {(s.joint[0], s.joint[2]) for s in standing(war) if s.joint}


def _busy(war: War) -> set[str]:
    """Livers already out with a standing sortie or joint attack."""
    busy = {liver for s in standing(war) for liver, _, _ in s.units}
    return busy | {s.joint[1] for s in standing(war) if s.joint}


def margin(state: State, war: War, area: str) -> int:
    """How the defenders of `area` stand before relief: their led soldiers less the attackers'."""
    where = state.areas[area]
    defending = sum(where.troops[troop] for troop in where.leads)
    attacking = sum(soldiers for s in standing(war) if s.order.target == area for _, _, soldiers in s.units)
    attacking += sum(s.joint[3] for s in standing(war) if s.order.target == area and s.joint)
    return defending - attacking


def assign_relief(state: State, war: War, battles: list[Battle], moved: Moved) -> dict[str, list[tuple]]:
    """Step 4: for each battle, the relief that goes there: (area, liver, country, (troop, soldiers)),
    the most disadvantaged area (`margin`) first."""
    order = list(state.areas)
    weakest = sorted(battles, key=lambda b: (margin(state, war, b.area), order.index(b.area)))
    sent: dict[str, list[tuple]] = {b.area: [] for b in battles}
    used: set[str] = set()
    for own in (True, False):
        for battle in weakest:
            candidates = [
                c
                for c in _relief_candidates(state, battle.area, war, moved, used)
                if (c[3] == battle.defender) == own and (own or state.allied(battle.defender, c[3]))
            ]
            if candidates:
                best = max(candidates, key=lambda c: (c[0], -list(state.areas).index(c[1])))
                used.add(best[1])
                sent[battle.area].append(best[1:])
    return sent


# -- the battles -------------------------------------------------------------------------------------


def _fighter(state: State, liver: str, troop: str, soldiers: int, origin: str) -> Fighter:
    """A unit leaves its area's pool for the battle (never more than the pool still holds)."""
    found = state.livers[liver]
    soldiers = min(soldiers, state.areas[origin].troops[troop])
    state.areas[origin].troops[troop] -= soldiers
    return Fighter(liver, found.name, troop, soldiers, dict(found.stats), origin)


def _add(armies: dict[tuple[str, str], Army], country: str, side: str, role: str, fighter: Fighter) -> None:
    army = armies.setdefault((country, side), Army(country, side, role, []))
    fighter.role = role
    army.fighters.append(fighter)


def _armies(
    state: State, battle: Battle, sorties: list[Sortie], joints: list, relief: list[tuple]
) -> list[Army]:
    armies: dict[tuple[str, str], Army] = {}
    area = state.areas[battle.area]
    for troop, who in area.leads.items():
        liver = state.livers.get(who)
        if liver is not None and liver.alive and liver.area == battle.area and area.troops[troop] > 0:
            _add(
                armies,
                area.owner or "",
                DEFENSE,
                GUARD,
                _fighter(state, who, troop, area.troops[troop], battle.area),
            )
    for origin, who, country, (troop, soldiers) in relief:
        _add(armies, country, DEFENSE, RELIEVE, _fighter(state, who, troop, soldiers, origin))
        battle.relief.append((origin, who))
    for sortie in sorties:
        for who, troop, soldiers in sortie.units:
            _add(
                armies,
                sortie.country,
                ATTACK,
                SORTIE_ROLE,
                _fighter(state, who, troop, soldiers, sortie.order.area),
            )
        if sortie.joint:
            origin, who, troop, soldiers = sortie.joint
            _add(armies, sortie.country, ATTACK, OWN_JOINT, _fighter(state, who, troop, soldiers, origin))
    for country, (origin, who, troop, soldiers) in joints:
        _add(armies, country, ATTACK, ALLY_JOINT, _fighter(state, who, troop, soldiers, origin))
    return list(armies.values())


def ally_joints(
    state: State, war: War, declared: list[tuple[str, AreaOrder]], moved: Moved
) -> dict[str, list]:
    """Step 3: the one allied joint unit per battle (the first declared that can go)."""
    joined: dict[str, list] = {}
    attacked, busy = attacked_areas(war), _busy(war)
    for country, order in declared:
        target = order.target or ""
        sortie_countries = {s.country for s in standing(war) if s.order.target == target}
        if target in joined or not any(state.allied(country, other) for other in sortie_countries):
            war.refused.append((order, f"{target}へ出陣する同盟国がないため共同攻撃はできません"))
            continue
        unit = _joint_unit(state, country, order.joint or ("", ""), target, moved)
        if (
            isinstance(unit, str)
            or unit[0] in attacked
            or unit[1] in busy
            or (unit[0], unit[2]) in _taken(war)
        ):
            war.refused.append(
                (
                    order,
                    unit
                    if isinstance(unit, str)
                    else "部隊を出すエリアが攻められたか、その部隊が出陣しているため共同攻撃できません",
                )
            )
            continue
        joined[target] = [(country, unit)]
        busy.add(unit[1])
    return joined


def fight_all(state: State, war: War, joints: dict[str, list], moved: Moved, source: RandomSource) -> None:
    targets = sorted(attacked_areas(war), key=list(state.areas).index)
    war.battles = [
        Battle(area, state.areas[area].owner)
        for area in targets
        if any(s.order.target == area for s in standing(war))
    ]
    relief = assign_relief(state, war, war.battles, moved)
    for battle in war.battles:
        sorties = [s for s in standing(war) if s.order.target == battle.area]
        armies = _armies(state, battle, sorties, joints.get(battle.area, []), relief[battle.area])
        dice = source.stream(f"niji/initiative/{battle.area}")
        rules = state.rules
        battle.fight = fight(
            armies, state.battle_stat(battle.area), dice, rules.casualty_rate, rules.max_rounds
        )


# -- after the battles -------------------------------------------------------------------------------


def occupier(result: Fight) -> str | None:
    """Who takes the area: None while the defending side has soldiers."""
    if result.alive(DEFENSE):
        return None
    attackers = [a for a in result.armies if a.side == ATTACK]
    for roles in ((SORTIE_ROLE, OWN_JOINT), (ALLY_JOINT,)):
        for army in attackers:  # initiative order
            if any(f.soldiers > 0 and f.role in roles for f in army.fighters):
                return army.country
    return None


def _capturer(fighter: Fighter, among: list[str] | None = None) -> str:
    """Whom the liver of a destroyed unit serves: of `among` (every country that hit it, when None),
    the one it lost the most soldiers to; ties go to the one that destroyed it, then the first."""
    damage = fighter.damage_by
    candidates = list(damage) if among is None else among
    return max(candidates, key=lambda c: (damage.get(c, 0), c == fighter.destroyed_by))


def _takers(state: State, result: Fight, taker: str, follow: Callable[[str], str]) -> list[str]:
    """§11: the occupying army and its joint attackers (the allied joint armies on its side)."""
    joints = [
        a.country
        for a in result.armies
        if a.side == ATTACK
        and state.allied(follow(taker), follow(a.country))
        and any(f.role == ALLY_JOINT for f in a.fighters)
    ]
    return [taker, *joints]


def settle(state: State, war: War, follow: Callable[[str], str]) -> None:
    """Step 5, battle by battle in area order: occupation, survivors home, captured livers."""
    for battle in war.battles:
        assert battle.fight is not None
        taker = occupier(battle.fight)
        battle.occupier = follow(taker) if taker else None
        fighters = [f for army in battle.fight.armies for f in army.fighters]
        # 「占領されたエリアの武将は、部隊が全滅した場合占領した軍または共同攻撃軍のうち、全滅を含めて
        # 自分が最も多くの損害を受けた勢力の配下になります」: a separate attacker is not among them.
        among = _takers(state, battle.fight, taker, follow) if taker else None
        captures = [
            (f, _capturer(f, among if f.role == GUARD else None))
            for f in fighters
            if f.soldiers == 0 and f.start > 0 and f.damage_by
        ]
        for fighter in fighters:
            if fighter.soldiers > 0:
                _return(state, battle, fighter, follow)
        for fighter, capturer in captures:
            country = follow(capturer)  # after the merges of the captures before it
            holder = follow(battle.occupier or state.areas[battle.area].owner or country)
            destination = battle.area if holder == country else _home_of(battle, country, state)
            battle.captured.append((fighter.liver, country))
            changes.change_country(state, fighter.liver, country, destination)
        if battle.occupier is not None:
            battle.occupier = follow(battle.occupier)
            battle.executed += changes.occupy(state, battle.area, battle.occupier)


def _return(state: State, battle: Battle, fighter: Fighter, follow: Callable[[str], str]) -> None:
    liver = state.livers[fighter.liver]
    home = fighter.origin if state.areas[fighter.origin].owner == follow(liver.country or "") else battle.area
    state.areas[home].troops[fighter.troop] += fighter.soldiers


def _home_of(battle: Battle, country: str, state: State) -> str:
    assert battle.fight is not None
    for army in battle.fight.armies:
        for fighter in army.fighters:
            if army.country == country and state.areas[fighter.origin].owner == country:
                return fighter.origin
    return state.lord_area(country) or battle.area


__all__ = ["Battle", "Sortie", "War", "declare", "fight_all", "settle"]
