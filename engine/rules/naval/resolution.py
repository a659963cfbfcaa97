"""Period resolution of the naval rules (seed 002): (state, orders, random source) → (next state, results).

Orders are handled one at a time in posting order (先行入力優先), each against the state left by the
ones before it; the result of every order is 勝利, 敗戦, 無効 (or 移動 for a move carried out) with the
reason. The random numbers of an island are drawn once per period, A, B, C, ... from the stream
`naval/{island}`, and handed out in order to the battles that island's orders start and that are
decided by a random number; an invalid battle, a transport sunk and a forced defeat take none.

What the page leaves open is decided here and stated in the ruleset's help (`help.py`): one order
per unit per period, the first one posted; a ＜インターセプト＞ acting only on a fighter operation posted
before it; a fighter's route as the straight hex line from its base; evacuation quotas counted at
take-off. The result words and types are `results.py`'s, the drawing and handing out of the random
numbers `randoms.py`'s, the battle arithmetic (with the equal-strength numbers) `combat.py`'s, the
moves and evacuations `movement.py`'s.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence

from engine.rng import RandomSource
from engine.rules.naval import hexgrid as naval_hex
from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.combat import attacker_wins, judgement, strength, threshold
from engine.rules.naval.grammar import NavalOrder, NavalOrderError, ParsedOrder
from engine.rules.naval.hexgrid import Hex
from engine.rules.naval.movement import FleetMoves
from engine.rules.naval.plan import Entry, Operation, Plan
from engine.rules.naval.randoms import PeriodRandoms, RandomsShortError
from engine.rules.naval.results import (
    LETTERS,
    LOSS,
    MOVED,
    VOID,
    WIN,
    OrderResult,
    RandomUse,
    Resolution,
)
from engine.rules.naval.state import (
    CARRIER,
    CATEGORY_NAMES,
    FIGHTER,
    SEA_CONTROL,
    TRANSPORT,
    NavalState,
    Unit,
    working_copy,
)

TARGET_GONE = "攻撃対象が存在せず無効"
INTERCEPT_TARGET_GONE = "迎撃対象が存在せず無効"
INTERCEPTED = "＜インターセプト＞により無効"


@gc_paused
def resolve_period(state: NavalState, orders: Sequence[ParsedOrder], source: RandomSource) -> Resolution:
    """Resolve one period. `orders` are in posting order; rejections from the parser are kept so every
    line gets a result. Raises RandomsShortError only when recorded numbers run out.

    Whether a fighter is intercepted is known only when the ＜インターセプト＞ comes in the list: an
    interceptor that cannot act by then (destroyed, or its carrier sunk in between) intercepts nothing,
    and the attack it seemed to void stands after all, on its own letter. So the period is settled in
    list order: resolved, and resolved again with the earliest such interception void, until none is
    left (each pass voids one more, so there are at most as many passes as interceptions)."""
    randoms = PeriodRandoms(state.islands, state.options.randoms_per_island, source)
    plan = Plan(state, orders)  # read once: every pass meets the same orders
    failing: frozenset[int] = frozenset()
    while True:
        period = _Period(state, plan, randoms.fresh(), failing)
        resolution = period.run()
        unable = sorted(period.cannot_act - failing)
        if not unable:
            return resolution
        failing |= {unable[0]}


class _Period(FleetMoves):
    """One pass over a period's orders in posting order: the fights here, the moves in `FleetMoves`."""

    def __init__(
        self,
        state: NavalState,
        plan: Plan,
        randoms: PeriodRandoms,
        failing: frozenset[int],
    ) -> None:
        self.state = working_copy(state)  # a unit is copied when it changes (`_changing`)
        self.period = state.period
        self.options = state.options
        self.randoms = randoms
        self.failing = failing  # interceptions whose fighter cannot act when their turn comes
        self.live_at_take_off: set[int] = set()
        self.cannot_act: set[int] = set()
        self.acted: dict[str, list[int]] = {}  # the orders each unit carried out
        self.removed: dict[str, int] = {}
        self.voided: dict[int, str] = {}
        self.operations: dict[str, Operation] = {}
        self.events: list[str] = []
        self.occupants: dict[Hex, set[str]] = defaultdict(set)
        self.carried: dict[str, set[str]] = defaultdict(set)
        islands = self.state.islands
        for unit in self.state.units.values():
            if unit.category == FIGHTER:
                if unit.base is not None and unit.base not in islands:  # what a carrier's loss strands
                    self.carried[unit.base].add(unit.id)
            elif unit.hex is not None:
                self.occupants[unit.hex].add(unit.id)
        self.stranded = {
            fighter: evacuation for evacuation in self.state.evacuations for fighter in evacuation.fighters
        }
        self.known = plan.known  # the units as the period began (shared until one changes)
        self.entries = plan.entries
        self.orders_of, self.attacks_on, self.intercepts_on = (
            plan.orders_of,
            plan.attacks_on,
            plan.intercepts_on,
        )

    # --- the loop -----------------------------------------------------------------------------------

    def run(self) -> Resolution:
        results = [self._resolve(entry) for entry in self.entries]
        self._expire_evacuations()
        self.state.period = self.period + 1
        return Resolution(self.period, self.state, self.randoms.drawn, results, self.events)

    def _resolve(self, entry: Entry) -> OrderResult:
        order = entry.order
        if isinstance(order, NavalOrderError):
            return OrderResult(
                entry.index, entry.island, None, order.raw.strip(), VOID, reason=order.reason, post=order.post
            )
        base = OrderResult(entry.index, entry.island, order.kind, order.canonical, VOID, post=order.post)
        if entry.index in self.voided:
            base.reason = self.voided[entry.index]
            return base
        if order.kind == "intercept" and entry.index in self.live_at_take_off and self._unable(order.unit):
            self.cannot_act.add(entry.index)
        problem = self._actor_problem(entry)
        if problem:
            base.reason = problem
            return base
        if order.kind == "attack":
            result = self._attack(entry, base)
        elif order.kind == "intercept":
            result = self._intercept(entry, base)
        else:
            result = self._move(entry, base)
        if result.result != VOID or result.reason.startswith(INTERCEPTED):  # the unit did act
            self.acted.setdefault(order.unit, []).append(entry.index)
        return result

    def _unable(self, fighter_id: str) -> bool:
        """A fighter that cannot take off now: destroyed, or left without a base."""
        fighter = self.state.units.get(fighter_id)
        return fighter is None or (fighter.category == FIGHTER and fighter.base is None)

    def _actor_problem(self, entry: Entry) -> str | None:
        order = entry.order
        assert isinstance(order, NavalOrder)
        unit = order.unit
        if unit not in self.known:
            return f"ユニット{unit}は存在しません"
        if not entry.owned:
            return (
                f"{entry.island}島のユニットではないため命令できません（{unit}は{self.known[unit].island}島）"
            )
        done = self.acted.get(unit, ())
        if len(done) >= self.options.orders_per_unit:
            limit = self.options.orders_per_unit
            return f"{unit}への命令は1ピリオド{limit}回まで（先行入力優先：{done[0]}番目の命令を実行済み）"
        if unit in self.removed:
            acting = {
                "attack": "攻撃命令を与えるユニット",
                "intercept": "迎撃する戦闘機",
                "move": "移動するユニット",
            }
            return f"{acting[order.kind]}が存在せず無効（{unit}は{self.removed[unit]}番目で消滅）"
        return None

    # --- ＜攻撃＞ -------------------------------------------------------------------------------------

    def _attack(self, entry: Entry, result: OrderResult) -> OrderResult:
        order = entry.order
        assert isinstance(order, NavalOrder) and order.target is not None and entry.island is not None
        attacker = self.state.units[order.unit]
        if attacker.category not in (SEA_CONTROL, FIGHTER):
            name = CATEGORY_NAMES[attacker.category]
            result.reason = f"{name}は攻撃できません（攻撃命令を与えるユニットは制海ユニットか戦闘機に限る）"
            return result
        if attacker.category == FIGHTER and attacker.base is None:
            result.reason = f"{attacker.id}は母艦を失っているため攻撃できません"
            return result
        target_problem = self._target_problem(attacker, order.target)
        if target_problem:
            result.reason = target_problem
            return result
        target = self.state.units[order.target]
        if attacker.category == FIGHTER:
            base_hex = self.state.hex_of(attacker)
            target_hex = self.state.hex_of(target)
            assert base_hex is not None and target_hex is not None
            operation = self._take_off(attacker, naval_hex.line(base_hex, target_hex), entry.index)
            if operation.live:
                result.reason = f"{INTERCEPTED}（{operation.live[0]}番目の＜インターセプト＞）"
                return result
            return _with_failed_interceptions(self._battle(entry, attacker, target, result), operation)
        return self._battle(entry, attacker, target, result)

    def _target_problem(self, attacker: Unit, target_id: str) -> str | None:
        if target_id in self.removed:
            return f"{TARGET_GONE}（{target_id}は{self.removed[target_id]}番目で消滅）"
        target = self.state.units.get(target_id)
        if target is None:
            return f"攻撃目標のユニット{target_id}は存在しません"
        if target.island == attacker.island:
            return f"自軍のユニット{target_id}は攻撃できません"
        if target.category == FIGHTER:
            return "戦闘機は＜攻撃＞の目標にできません（作戦行動中の戦闘機には＜インターセプト＞）"
        target_hex = self.state.hex_of(target)
        assert target_hex is not None
        if attacker.category == SEA_CONTROL:
            if attacker.hex != target_hex:
                return (
                    f"同海域にいないため攻撃できません（{attacker.id}は{naval_hex.shown(attacker.hex)}、"
                    f"{target_id}は{naval_hex.shown(target_hex)}）"
                )
            return None
        base_hex = self.state.hex_of(attacker)
        assert base_hex is not None
        reach = self.options.fighter_range
        gap = naval_hex.distance(base_hex, target_hex)
        if gap > reach:
            return f"戦闘機の行動範囲外（配属基地{attacker.base}から{gap}Hex、{reach}Hex以内のみ攻撃可能）"
        return None

    def _battle(self, entry: Entry, attacker: Unit, target: Unit, result: OrderResult) -> OrderResult:
        assert entry.island is not None
        a_condition = self._forced_a_condition(entry.index, target.id)
        escort = self._escort(target)
        if a_condition is not None:
            j, what = a_condition
            if escort:
                self.voided[j] = (
                    f"{entry.index}番目の＜攻撃＞の攻撃対象となっていたため{what}は無効"
                    f"（強制敗戦Bが優先、{target.id}は現海域から動けない）"
                )
            else:
                self.voided[j] = (
                    f"強制敗戦A：{entry.index}番目の＜攻撃＞の攻撃対象となっていたため{what}は無効"
                )
        if escort:
            result.forced = "B"
            reason = f"強制敗戦B：空母{target.id}と同海域に友軍の制海ユニット{escort}がいる"
            if a_condition is not None:
                reason += f"（{a_condition[0]}番目の{a_condition[1]}による強制敗戦Aと重なるがBが優先）"
            return self._finish(entry, result, winner=target, loser=attacker, reason=reason)
        if a_condition is not None:
            result.forced = "A"
            j, what = a_condition
            reason = f"強制敗戦A：攻撃対象の{target.id}が{j}番目で{what}を入力したため{target.id}の敗戦"
            return self._finish(entry, result, winner=attacker, loser=target, reason=reason)
        if target.category == TRANSPORT:
            reason = "輸送ユニット（戦力0）への攻撃は乱数判定なしで勝利"
            return self._finish(entry, result, winner=attacker, loser=target, reason=reason)
        return self._judged(entry, attacker, target, result)

    def _judged(self, entry: Entry, attacker: Unit, target: Unit, result: OrderResult) -> OrderResult:
        assert entry.island is not None
        drawn = self.randoms.take(entry.island)
        if isinstance(drawn, str):
            result.reason = drawn
            return result
        mine, theirs = strength(attacker, target), strength(target, attacker)
        result.random = drawn
        result.strengths = (mine, theirs)
        result.threshold = threshold(abs(mine - theirs))
        result.work = judgement(mine, theirs, drawn.value)
        if attacker_wins(mine, theirs, drawn.value):
            return self._finish(entry, result, winner=attacker, loser=target, reason="")
        return self._finish(entry, result, winner=target, loser=attacker, reason="")

    def _finish(
        self, entry: Entry, result: OrderResult, winner: Unit, loser: Unit, reason: str
    ) -> OrderResult:
        assert isinstance(entry.order, NavalOrder)
        result.result = WIN if winner.id == entry.order.unit else LOSS
        result.winner, result.loser = winner.id, loser.id
        result.reason = reason
        self._remove(loser.id, entry.index)
        return result

    def _forced_a_condition(self, index: int, target_id: str) -> tuple[int, str] | None:
        """Forced defeat A: the unit attacked here has, later in the list, a ＜移動＞ or an ＜攻撃＞ on a
        unit that is not fighting it (one that did not ＜攻撃＞ it before that order)."""
        later_orders = self.orders_of.get(target_id)
        if not later_orders:
            return None
        at = bisect_right(later_orders, index)  # each unit's orders are listed in posting order
        if at == len(later_orders):
            return None
        j = later_orders[at]
        later = self.entries[j - 1].order
        assert isinstance(later, NavalOrder)
        if later.kind == "move":
            return j, "＜移動＞"
        if later.kind == "attack":
            fighting = {attacker for k, attacker in self.attacks_on.get(target_id, ()) if k < j}
            if later.target not in fighting:
                return j, f"交戦状態にない{later.target}への＜攻撃＞"
        return None

    def _escort(self, target: Unit) -> str | None:
        """A friendly sea-control unit sharing the carrier's sea area (forced defeat B)."""
        if target.category != CARRIER or target.hex is None:
            return None
        for unit_id in sorted(self.occupants.get(target.hex, ())):
            unit = self.state.units[unit_id]
            if unit.category == SEA_CONTROL and unit.island == target.island:
                return unit_id
        return None

    # --- ＜インターセプト＞ ----------------------------------------------------------------------------

    def _interceptor_problem(self, interceptor: Unit) -> str | None:
        if interceptor.category != FIGHTER:
            return f"＜インターセプト＞できるのは戦闘機だけです（{interceptor.id}は{CATEGORY_NAMES[interceptor.category]}）"
        if interceptor.base is None:
            return f"{interceptor.id}は母艦を失っているため迎撃に出られません"
        return None

    def _reach_problem(self, interceptor: Unit, target: Unit, route: list[Hex]) -> str | None:
        if target.island == interceptor.island:
            return f"自軍の戦闘機{target.id}は迎撃できません"
        base_hex = self.state.hex_of(interceptor)
        assert base_hex is not None
        reach = self.options.fighter_range
        if not naval_hex.within(base_hex, route, reach):
            gap = min(naval_hex.distance(base_hex, h) for h in route)
            return f"迎撃範囲外（{interceptor.id}の基地から{target.id}の飛行経路まで{gap}Hex、{reach}Hex以内のみ迎撃可能）"
        return None

    def _take_off(self, fighter: Unit, route: list[Hex], index: int) -> Operation:
        """A fighter sets out: which later ＜インターセプト＞ on it can reach its route is fixed now."""
        operation = Operation(index, route)
        for j in self.intercepts_on.get(fighter.id, ()):
            if j <= index:
                continue
            if j in self.failing:
                operation.failed.append(j)
                continue
            order = self.entries[j - 1].order
            assert isinstance(order, NavalOrder)
            interceptor = self.state.units.get(order.unit)
            if interceptor is None:
                continue
            problem = self._interceptor_problem(interceptor) or self._reach_problem(
                interceptor, fighter, route
            )
            if problem is None:
                operation.live.append(j)
                self.live_at_take_off.add(j)
            else:
                operation.refused[j] = problem
        self.operations[fighter.id] = operation
        return operation

    def _intercept(self, entry: Entry, result: OrderResult) -> OrderResult:
        order = entry.order
        assert isinstance(order, NavalOrder) and order.target is not None
        interceptor = self.state.units[order.unit]
        problem = self._interceptor_problem(interceptor)
        if problem:
            result.reason = problem
            return result
        if order.target in self.removed:
            result.reason = (
                f"{INTERCEPT_TARGET_GONE}（{order.target}は{self.removed[order.target]}番目で消滅）"
            )
            return result
        target = self.state.units.get(order.target)
        if target is None:
            result.reason = f"迎撃対象のユニット{order.target}は存在しません"
            return result
        if target.category != FIGHTER:
            result.reason = (
                f"迎撃できるのは作戦行動中の戦闘機だけです（{target.id}は{CATEGORY_NAMES[target.category]}）"
            )
            return result
        if target.island == interceptor.island:
            result.reason = f"自軍の戦闘機{target.id}は迎撃できません"
            return result
        operation = self.operations.get(target.id)
        if operation is None or operation.index > entry.index:
            result.reason = (
                f"{INTERCEPT_TARGET_GONE}（{target.id}はこの命令より前に＜攻撃＞も退避も実行していない）"
            )
            return result
        if entry.index in operation.failed:
            result.reason = f"{interceptor.id}は迎撃の時点で行動できないため無効"
            return result
        if entry.index not in operation.live:
            refused = operation.refused.get(entry.index, "")
            result.reason = (
                refused or f"{target.id}の出撃（{operation.index}番目）の時点で迎撃できなかったため無効"
            )
            return result
        return self._judged(entry, interceptor, target, result)


def _with_failed_interceptions(result: OrderResult, operation: Operation) -> OrderResult:
    """An attack that stood because the interceptions on it came to nothing says so."""
    if operation.failed:
        note = f"{'・'.join(map(str, operation.failed))}番目の＜インターセプト＞は迎撃機が行動できず無効"
        result.reason = f"{result.reason}（{note}）" if result.reason else note
    return result


# The results, the random numbers and the battle arithmetic were defined here first; callers still
# import them from here.
__all__ = [
    "LETTERS",
    "LOSS",
    "MOVED",
    "VOID",
    "WIN",
    "OrderResult",
    "RandomUse",
    "RandomsShortError",
    "Resolution",
    "attacker_wins",
    "judgement",
    "resolve_period",
    "strength",
    "threshold",
]
