"""The moving part of a period's resolution (seed 002): ＜移動＞ of ships, the evacuation of a lost
carrier's fighters with its quotas, and what removing a unit strands. A mix-in of the resolver's
`_Period`, which holds the period's tables these methods read and change; the plan they read is
`plan.py`'s (this module does not import the resolver).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.naval import hexgrid as naval_hex
from engine.rules.naval.grammar import NavalOrder
from engine.rules.naval.hexgrid import Hex
from engine.rules.naval.plan import Entry, Operation
from engine.rules.naval.results import MOVED, OrderResult
from engine.rules.naval.state import (
    CARRIER,
    CATEGORY_NAMES,
    FIGHTER,
    Evacuation,
    NavalState,
    Options,
    Unit,
    copy_unit,
)


class FleetMoves:
    state: NavalState
    options: Options
    period: int
    occupants: dict[Hex, set[str]]  # ships by hex
    carried: dict[str, set[str]]  # fighters by carrier (those at an island's base are not counted)
    stranded: dict[str, Evacuation]  # fighters waiting to evacuate
    removed: dict[str, int]  # unit → the order that removed it
    events: list[str]
    known: dict[str, Unit]  # the units as the period began, which `state` shares until one changes

    _take_off: Callable[[Unit, list[Hex], int], Operation]  # the resolver's: interception is decided there

    # --- ＜移動＞ ------------------------------------------------------------------------------------

    def _move(self, entry: Entry, result: OrderResult) -> OrderResult:
        order = entry.order
        assert isinstance(order, NavalOrder)
        unit = self.state.units[order.unit]
        if unit.category == FIGHTER:
            if unit.base is not None:
                result.reason = "戦闘機の＜移動＞は所属空母が敗戦したときの退避だけです"
                return result
            return self._evacuate(entry, unit, result)
        if order.to_hex is None:
            result.reason = f"{CATEGORY_NAMES[unit.category]}の移動先は座標(x,y)で指定してください"
            return result
        destination = order.to_hex
        if not self.state.on_map(destination):
            result.reason = f"移動先{naval_hex.shown(destination)}は地図（{self.state.width}×{self.state.height}）の外です"
            return result
        assert unit.hex is not None
        gap = naval_hex.distance(unit.hex, destination)
        if gap == 0:
            result.reason = f"{unit.id}は既に{naval_hex.shown(destination)}にいます"
            return result
        if gap > self.options.move_range:
            result.reason = (
                f"移動できるのは{self.options.move_range}Hexまで（{naval_hex.shown(unit.hex)}から{gap}Hex）"
            )
            return result
        self.occupants[unit.hex].discard(unit.id)
        unit = self._changing(unit)
        unit.hex = destination
        self.occupants[destination].add(unit.id)
        result.result = MOVED
        result.reason = f"{unit.id}は{naval_hex.shown(destination)}へ移動"
        return result

    def _evacuate(self, entry: Entry, fighter: Unit, result: OrderResult) -> OrderResult:
        order = entry.order
        assert isinstance(order, NavalOrder)
        evacuation = self.stranded.get(fighter.id)
        if evacuation is None:
            result.reason = f"{fighter.id}は退避できる戦闘機ではありません"
            return result
        if evacuation.period == self.period:
            result.reason = f"退避は所属空母{evacuation.carrier}が敗戦した次のピリオドに限り実行できます"
            return result
        if order.target is None:
            result.reason = "退避先は基地の島名か空母のユニット名で指定してください"
            return result
        destination = self._evacuation_base(fighter, order.target)
        if isinstance(destination, str):
            result.reason = destination
            return result
        host, base_hex = destination
        reach = self.options.fighter_range
        gap = naval_hex.distance(evacuation.hex, base_hex)
        if gap > reach:
            result.reason = f"退避先が遠すぎます（{evacuation.carrier}の喪失地点{naval_hex.shown(evacuation.hex)}から{gap}Hex、{reach}Hex以内のみ）"
            return result
        quota = self._quota_problem(evacuation, foreign=host != fighter.island)
        if quota:
            result.reason = quota
            return result
        evacuation.fighters.remove(fighter.id)
        del self.stranded[fighter.id]
        fighter = self._changing(fighter)
        fighter.base, fighter.hex = order.target, None
        if order.target not in self.state.islands:
            self.carried[order.target].add(fighter.id)
        operation = self._take_off(fighter, naval_hex.line(evacuation.hex, base_hex), entry.index)
        result.result = MOVED
        used = (
            evacuation.used_foreign
            if self.options.evacuation_quotas == 2 and host != fighter.island
            else evacuation.used
        )
        result.reason = f"{fighter.id}は{order.target}へ退避（{used}/{evacuation.allowed}機目）"
        if operation.live:
            result.reason += f"、{'・'.join(map(str, operation.live))}番目の＜インターセプト＞を受ける"
        return result

    def _quota_problem(self, evacuation: Evacuation, *, foreign: bool) -> str | None:
        """Count one more evacuee against its half, or say why it cannot go: one half shared by own
        and foreign bases (evacuation_quotas = 1), or a half for each (= 2)."""
        separate = self.options.evacuation_quotas == 2
        if separate and foreign:
            if evacuation.used_foreign >= evacuation.allowed:
                return f"{evacuation.carrier}の艦載機が他島の基地へ退避できるのは半数の{evacuation.allowed}機までです"
            evacuation.used_foreign += 1
            return None
        if evacuation.used >= evacuation.allowed:
            where = "自軍の基地へ" if separate else ""
            return f"{evacuation.carrier}の艦載機が{where}退避できるのは半数の{evacuation.allowed}機までです"
        evacuation.used += 1
        return None

    def _evacuation_base(self, fighter: Unit, base: str) -> tuple[str, Hex] | str:
        if base in self.state.islands:
            host, base_hex = base, self.state.islands[base].home
        elif base in self.removed:
            return f"退避先の空母{base}は{self.removed[base]}番目で消滅しています"
        elif base in self.state.units and self.state.units[base].category == CARRIER:
            carrier = self.state.units[base]
            assert carrier.hex is not None
            host, base_hex = carrier.island, carrier.hex
        else:
            return f"退避先{base}は基地（島）でも空母でもありません"
        if host != fighter.island and fighter.island not in self.state.islands[host].permits_evacuation:
            return f"{host}島が{fighter.island}島の退避を許可していないため{base}には退避できません"
        return host, base_hex

    def _changing(self, unit: Unit) -> Unit:
        """The period's own copy of `unit`, to change (the state it began with stays as it was)."""
        if self.known.get(unit.id) is unit:
            unit = copy_unit(unit)
            self.state.units[unit.id] = unit
        return unit

    # --- removal ----------------------------------------------------------------------------------

    def _remove(self, unit_id: str, index: int) -> None:
        unit = self.state.units.pop(unit_id)
        self.removed[unit_id] = index
        if unit.category == FIGHTER:
            if unit.base in self.carried:
                self.carried[unit.base].discard(unit_id)
            evacuation = self.stranded.pop(unit_id, None)
            if evacuation is not None:
                evacuation.fighters.remove(unit_id)
            return
        if unit.hex is not None:
            self.occupants[unit.hex].discard(unit_id)
        if unit.category == CARRIER:
            self._strand(unit, index)

    def _strand(self, carrier: Unit, index: int) -> None:
        fighters = sorted(self.carried.pop(carrier.id, set()))
        if not fighters:
            return
        assert carrier.hex is not None
        for fighter_id in fighters:
            fighter = self._changing(self.state.units[fighter_id])
            fighter.base, fighter.hex = None, carrier.hex
        allowed = len(fighters) // 2
        evacuation = Evacuation(carrier.id, carrier.island, carrier.hex, self.period, list(fighters), allowed)
        self.state.evacuations.append(evacuation)
        self.stranded.update(dict.fromkeys(fighters, evacuation))
        self.events.append(
            f"空母{carrier.id}喪失（{index}番目）：艦載機{len(fighters)}機（{'、'.join(fighters)}）のうち"
            f"{allowed}機まで、次ピリオドに限り＜移動＞で{self.options.fighter_range}Hex以内の基地・空母へ退避可能"
        )

    def _expire_evacuations(self) -> None:
        kept: list[Evacuation] = []
        for evacuation in self.state.evacuations:
            if evacuation.period >= self.period:
                kept.append(evacuation)
                continue
            for fighter_id in evacuation.fighters:
                self.state.units.pop(fighter_id, None)
            if evacuation.fighters:
                self.events.append(
                    f"空母{evacuation.carrier}の艦載機{'、'.join(evacuation.fighters)}は退避できず喪失"
                )
        self.state.evacuations = kept
