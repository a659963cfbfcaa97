"""The commands at home: 内政, 徴兵, 配信, 移動, and the free designations 編成 / 救援 / 委任.
Each takes the state (changed in place: `resolve` works on a copy) and one order, and returns
(done, what happened in Japanese).

- 内政: +3 国力 in the area; +4 where the area is delegated to a vassal player's liver who is there.
- 徴兵: 1 国力 for 足軽1000, 弓兵500 or 騎兵500, 2 国力 for 鉄砲500 (scenario `conscription`), from the
  area's own 国力; amounts are whole batches.
- 配信: 1D6 on the scenario's table (`niji/haishin/<area>`): 機材トラブル (nothing), 能力アイテム (a
  1D4 picks 統率/武勇/智略/政治, +5), 選べる能力アイテム (the stat the order names, else the area's
  terrain stat, +5), 登用 (a free liver in this or an adjacent area joins, a die picks among several;
  none: an 能力アイテム). Stats stay within 1–100.
- 移動: livers, troops and 国力 of the area to another own area, any distance; a liver moves once a
  season. 「移動した部隊はそのターンには出陣・救援できません」: a liver that moved, and the soldiers that
  arrived in an area, cannot sortie, relieve or join an attack this season (`Moved`); the soldiers who
  stayed still can. Moved soldiers defend the area they are in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rng import Dice
from engine.rules.nijiyabou.changes import forget
from engine.rules.nijiyabou.grammar import AreaOrder
from engine.rules.nijiyabou.names import STATS, TERRAIN_STAT, key
from engine.rules.nijiyabou.state import State

ITEM, CHOSEN, RECRUIT, TROUBLE = "能力アイテム", "選べる能力アイテム", "登用", "機材トラブル"


@dataclass
class Moved:
    """What moved this season: the livers, and the soldiers that arrived per (area, troop type)."""

    livers: set[str] = field(default_factory=set)
    arrived: dict[tuple[str, str], int] = field(default_factory=dict)

    def __contains__(self, liver: object) -> bool:
        return liver in self.livers

    def ready(self, state: State, area: str, troop: str) -> int:
        """The soldiers of `troop` in `area` that may sortie or relieve: those that did not just arrive
        (scenario `combat.moved_troops = "unit"`: none, when any arrived)."""
        arrived = self.arrived.get((area, troop), 0)
        if arrived and state.rules.moved_troops == "unit":
            return 0
        return max(0, state.areas[area].troops[troop] - arrived)

    def carry(self, state: State, source: str, dest: str, troop: str, amount: int) -> None:
        """`amount` soldiers went from `source` to `dest` (those leaving `source` are the ones that
        stayed first: soldiers that had just arrived there leave last)."""
        left = state.areas[source].troops[troop]
        if (source, troop) in self.arrived:
            self.arrived[(source, troop)] = min(self.arrived[(source, troop)], left)
        self.arrived[(dest, troop)] = self.arrived.get((dest, troop), 0) + amount


def domestic(state: State, order: AreaOrder) -> tuple[bool, str]:
    area = state.areas[order.area]
    delegate = state.livers.get(area.delegate) if area.delegate else None
    bonus = (
        delegate is not None
        and delegate.player is not None
        and delegate.area == order.area
        and delegate.country == area.owner
    )
    gain = state.rules.delegated_power if bonus else state.rules.domestic_power
    area.power += gain
    where = f"（委任された{delegate.name}がいるため）" if bonus and delegate else ""
    return True, f"{order.area} 内政：国力+{gain}{where} → {area.power}"


def conscript(state: State, order: AreaOrder) -> tuple[bool, str]:
    area = state.areas[order.area]
    total = 0
    for troop, amount in order.amounts:
        cost, batch = state.rules.cost(troop)
        if amount % batch:
            return False, f"{order.area} 徴兵：{troop}は{batch}単位で徴兵します（{amount}）"
        total += cost * (amount // batch)
    if total > area.power:
        return False, f"{order.area} 徴兵：国力が足りません（必要{total}、{order.area}の国力{area.power}）"
    area.power -= total
    for troop, amount in order.amounts:
        area.troops[troop] += amount
    got = "・".join(f"{troop}{amount}" for troop, amount in order.amounts)
    return True, f"{order.area} 徴兵：{got}（国力-{total} → {area.power}）"


def _streamer(state: State, order: AreaOrder) -> str | None:
    present = state.livers_in(order.area)
    if order.target:
        return key(order.target) if key(order.target) in present else None
    lord = state.countries[state.areas[order.area].owner or ""].lord
    return lord if lord in present else (present[0] if present else None)


def _raise(state: State, liver: str, stat: str) -> str:
    stats = state.livers[liver].stats
    stats[stat] = min(100, stats[stat] + state.rules.stat_step)
    return f"{state.livers[liver].name}の{stat}+{state.rules.stat_step} → {stats[stat]}"


def stream(state: State, order: AreaOrder, dice: Dice) -> tuple[bool, str]:
    liver = _streamer(state, order)
    if liver is None:
        return False, f"{order.area} 配信：{order.target or 'ライバー'}が{order.area}にいません"
    face = dice.roll(6)
    outcome = state.rules.haishin[face - 1]
    head = f"{order.area} 配信（{state.livers[liver].name}）：1D6={face} {outcome}"
    if outcome == TROUBLE:
        return True, f"{head}、何も得られませんでした"
    if outcome == CHOSEN:
        stat = order.act or TERRAIN_STAT[state.areas[order.area].terrain]
        return True, f"{head}、{_raise(state, liver, stat)}"
    if outcome == RECRUIT:
        free = [
            k
            for k, found in state.livers.items()
            if found.alive
            and found.country is None
            and found.area in (order.area, *state.neighbours(order.area))
        ]
        if free:
            chosen = free[dice.roll(len(free)) - 1] if len(free) > 1 else free[0]
            state.livers[chosen].country = state.areas[order.area].owner
            state.livers[chosen].area = order.area
            return True, f"{head}、{state.livers[chosen].name}が家臣になりました"
        head += "（登用できるライバーがいないため能力アイテム）"
    stat = STATS[dice.roll(4) - 1]
    return True, f"{head}、1D4→{stat}、{_raise(state, liver, stat)}"


def move(state: State, order: AreaOrder, moved: Moved) -> tuple[bool, str]:
    source, dest = state.areas[order.area], state.areas[order.target or ""]
    if dest.owner != source.owner:
        return False, f"{order.area} 移動：{order.target}は自国のエリアではありません"
    livers = []
    for name in order.livers:
        found = state.liver(name)
        if found is None or found.area != order.area:
            return False, f"{order.area} 移動：{name}は{order.area}にいません"
        if key(name) in moved:
            return False, f"{order.area} 移動：{name}はこの季節にもう移動しています"
        livers.append(key(name))
    for what, amount in order.amounts:
        have = source.power if what == "国力" else source.troops[what]
        if amount > have:
            return False, f"{order.area} 移動：{what}は{have}しかありません（{what}{amount}を移動）"
    for liver in livers:
        forget(state, liver, order.area)
        state.livers[liver].area = order.target
        moved.livers.add(liver)
    for what, amount in order.amounts:
        if what == "国力":
            source.power -= amount
            dest.power += amount
        else:
            source.troops[what] -= amount
            dest.troops[what] += amount
            moved.carry(state, order.area, order.target or "", what, amount)
    what = [state.livers[k].name for k in livers] + [f"{w}{a}" for w, a in order.amounts]
    return True, f"{order.area} 移動：{'・'.join(what)} → {order.target}"


def organize(state: State, order: AreaOrder) -> tuple[bool, str]:
    area = state.areas[order.area]
    leads = {}
    for unit in order.units:
        found = state.liver(unit.liver)
        if found is None or found.area != order.area or found.country != area.owner:
            return False, f"{order.area} 編成：{unit.liver}は{order.area}にいる自国のライバーではありません"
        leads[unit.troop] = key(unit.liver)
    area.leads = leads
    shown = "・".join(f"{state.livers[w].name}({t})" for t, w in leads.items()) or "なし"
    return True, f"{order.area} 編成：{shown}"


def relief(state: State, order: AreaOrder) -> tuple[bool, str]:
    area = state.areas[order.area]
    if not order.livers:
        area.relief = None
        return True, f"{order.area} 救援部隊：なし"
    found = state.liver(order.livers[0])
    if found is None or found.area != order.area or found.country != area.owner:
        return False, f"{order.area} 救援：{order.livers[0]}は{order.area}にいる自国のライバーではありません"
    area.relief = key(order.livers[0])
    return True, f"{order.area} 救援部隊：{found.name}"


def delegate(state: State, order: AreaOrder) -> tuple[bool, str]:
    area = state.areas[order.area]
    if not order.livers:
        area.delegate = None
        return True, f"{order.area} 委任：なし"
    found = state.liver(order.livers[0])
    liver = key(order.livers[0])
    if found is None or found.country != area.owner or found.player is None or liver in state.countries:
        return False, f"{order.area} 委任：{order.livers[0]}はプレイヤーのいる自国の家臣ではありません"
    area.delegate = liver
    return True, f"{order.area} 委任：{found.name}"
