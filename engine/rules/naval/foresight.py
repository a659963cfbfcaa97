"""What a receipt can tell of a naval order's fate from the period as it stands (issue 25: a receipt
is a promise): the rules that void it whatever happens first (a carrier's ＜攻撃＞, a fighter as the
target, a ＜インターセプト＞ posted before the fighter took off...), the map as it stands (not in the same
sea area, out of reach, too far to move) and forced defeat A (seed 002: moving, or attacking a unit it
is not fighting, a unit that an earlier ＜攻撃＞ targets loses it and voids the order).

The order is still taken: the page says such an order *is* entered and then found 無効, and a later
order may change the picture (a unit moved into the same sea area; the earlier ＜攻撃＞ voided). So the
receipt warns — 「このままなら無効：…」 — and the period's report gives the verdict."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.naval import hexgrid
from engine.rules.naval.grammar import NavalOrder
from engine.rules.naval.state import (
    CARRIER,
    CATEGORY_NAMES,
    FIGHTER,
    SEA_CONTROL,
    IdLookup,
    NavalState,
    Unit,
)


def warning(
    state: NavalState, order: NavalOrder, earlier: Sequence[NavalOrder], past_limit: str | None = None
) -> str | None:
    """The receipt's warning on `order`, given the period's accepted orders before it (`past_limit`:
    the unit's earlier orders would use up its orders, in these words); None when the order can run
    as things stand."""
    ids = IdLookup(state.units, state.islands)
    unit = state.units.get(ids.get(order.unit) or "")
    if unit is None:
        return past_limit  # refused at intake
    target_id = ids.get(order.target) if order.target and "-" in order.target else None
    target = state.units.get(target_id or "")
    before = [_canonical(ids, o) for o in earlier]
    if order.kind == "attack" and target is not None:
        why = _attack_problem(state, unit, target, before)
    elif order.kind == "intercept" and target is not None:
        why = _intercept_problem(state, unit, target, before)
    elif order.kind == "move" and order.to_hex is not None and unit.category != FIGHTER:
        why = None if _moved(unit.id, before) else _move_problem(state, unit, order.to_hex)
    elif order.kind == "move" and order.target is not None and unit.category == FIGHTER:
        why = _evacuation_problem(state, unit, order.target, before)
    else:
        why = None
    forced = _forced_a(state, unit, order, target, before)  # whether this order runs or not
    if why is None and order.kind == "attack" and target is not None and not past_limit:
        forced = forced or _forced_b(state, unit, target, before)
    own = f"このままなら無効：{why}" if why else past_limit
    return "。".join(filter(None, (forced, own))) or None


def _escort(state: NavalState, carrier: Unit, before: list[tuple[str, str, str | None]]) -> str | None:
    """A friendly sea-control unit in the carrier's sea area as things stand (forced defeat B), None
    also when a move before this order may change who is there."""
    if carrier.category != CARRIER or carrier.hex is None or _moved(carrier.id, before):
        return None
    escorts = sorted(
        unit.id
        for unit in state.units.values()
        if unit.category == SEA_CONTROL and unit.island == carrier.island and unit.hex == carrier.hex
    )
    return next((e for e in escorts if not _moved(e, before)), None)


def _forced_b(
    state: NavalState, attacker: Unit, carrier: Unit, before: list[tuple[str, str, str | None]]
) -> str | None:
    """Forced defeat B as it stands: attacking a carrier whose own sea-control unit shares its hex."""
    escort = _escort(state, carrier, before)
    if escort is None:
        return None
    return (
        f"このままなら強制敗戦B：空母{carrier.id}と同海域に友軍の制海ユニット{escort}がいるため、"
        f"{attacker.id}の敗戦です（空母は敗戦しません）"
    )


def _canonical(ids: IdLookup, order: NavalOrder) -> tuple[str, str, str | None]:
    """(kind, unit, target) with the scenario's spelling of the ids."""
    target = (ids.get(order.target) or order.target) if order.target else None
    return order.kind, ids.get(order.unit) or order.unit, target


def _forced_a(
    state: NavalState,
    unit: Unit,
    order: NavalOrder,
    target: Unit | None,
    before: list[tuple[str, str, str | None]],
) -> str | None:
    """Forced defeat A as it stands: an earlier ＜攻撃＞ on `unit` that the rules let stand (only a
    valid attack forces a defeat), this order the unit's first after it (the resolution weighs that
    one), and a ＜移動＞ or an attack on a unit not fighting it (one that attacked it before)."""
    own = [i for i, (_, actor, _) in enumerate(before) if actor == unit.id]
    since = own[-1] + 1 if own else 0
    attackers = [
        attacker
        for kind, attacker, aimed in before[since:]
        if kind == "attack"
        and aimed == unit.id
        and attacker in state.units
        and not _attack_problem(state, state.units[attacker], unit, before)
    ]
    if not attackers:
        return None
    fighting = {attacker for kind, attacker, aimed in before if kind == "attack" and aimed == unit.id}
    if order.kind == "move":
        what = "＜移動＞"
    elif order.kind == "attack" and target is not None and target.id not in fighting:
        what = f"交戦状態にない{target.id}への＜攻撃＞"
    else:
        return None
    escort = _escort(state, unit, before) if order.kind == "move" else None
    if escort is not None:  # A and B at once: B first (the page's ※)
        return (
            f"このままなら強制敗戦Bが優先：{unit.id}は先に入力された{attackers[0]}の＜攻撃＞の攻撃対象のため、"
            f"この＜移動＞は無効で現海域から動けません（同海域に友軍の{escort}がいるため、"
            f"攻撃した{attackers[0]}の敗戦）"
        )
    return (
        f"このままなら強制敗戦A：{unit.id}は先に入力された{attackers[0]}の＜攻撃＞の攻撃対象のため、"
        f"この{what}は無効になり、その＜攻撃＞が有効なら{unit.id}の敗戦です"
    )


def _moved(unit_id: str, before: list[tuple[str, str, str | None]]) -> bool:
    return any(kind == "move" and mover == unit_id for kind, mover, _ in before)


def _rule_problem(attacker: Unit, target: Unit) -> str | None:
    """What voids an ＜攻撃＞ whatever happens before it: who attacks, and whom."""
    if attacker.category not in (SEA_CONTROL, FIGHTER):
        name = CATEGORY_NAMES[attacker.category]
        return f"{name}は攻撃できません（攻撃命令を与えるユニットは制海ユニットか戦闘機に限る）"
    if attacker.category == FIGHTER and attacker.base is None:
        return f"{attacker.id}は母艦を失っているため攻撃できません"
    if target.island == attacker.island:
        return f"自軍のユニット{target.id}は攻撃できません"
    if target.category == FIGHTER:
        return "戦闘機は＜攻撃＞の目標にできません（作戦行動中の戦闘機には＜インターセプト＞）"
    return None


def _attack_problem(
    state: NavalState, attacker: Unit, target: Unit, before: list[tuple[str, str, str | None]]
) -> str | None:
    if problem := _rule_problem(attacker, target):
        return problem
    if any(_moved(u, before) for u in (attacker.id, target.id, attacker.base or "")):
        return None  # a move before this order changes the map
    there, here = state.hex_of(target), state.hex_of(attacker)
    if there is None or here is None:
        return None
    if attacker.category == SEA_CONTROL and here != there:
        return (
            f"同海域にいません（{attacker.id}は{hexgrid.shown(here)}、{target.id}は{hexgrid.shown(there)}）"
        )
    reach = state.options.fighter_range
    if attacker.category == FIGHTER and (gap := hexgrid.distance(here, there)) > reach:
        return f"戦闘機の行動範囲外（配属基地{attacker.base}から{gap}Hex、{reach}Hex以内のみ攻撃可能）"
    return None


def _intercept_problem(
    state: NavalState, interceptor: Unit, target: Unit, before: list[tuple[str, str, str | None]]
) -> str | None:
    if interceptor.category != FIGHTER:
        return f"＜インターセプト＞できるのは戦闘機だけです（{interceptor.id}は{CATEGORY_NAMES[interceptor.category]}）"
    if interceptor.base is None:
        return f"{interceptor.id}は母艦を失っているため迎撃に出られません"
    if target.category != FIGHTER:
        return f"迎撃できるのは作戦行動中の戦闘機だけです（{target.id}は{CATEGORY_NAMES[target.category]}）"
    if target.island == interceptor.island:
        return f"自軍の戦闘機{target.id}は迎撃できません"
    flights = [aimed for kind, flier, aimed in before if _takes_off(state, target, kind, flier, aimed)]
    if not flights:
        return (
            f"{target.id}はこの命令より前に＜攻撃＞も退避もしていません"
            "（迎撃できるのは迎撃対象の作戦行動より後に入力された＜インターセプト＞だけ）"
        )
    if any(_moved(u, before) for u in (interceptor.base, target.base, flights[0]) if u):
        return None  # a move before this order changes the map
    route = _route(state, target, flights[0])
    home = state.hex_of(interceptor)
    reach = state.options.fighter_range
    if route and home is not None and not hexgrid.within(home, route, reach):
        gap = min(hexgrid.distance(home, h) for h in route)
        return (
            f"迎撃範囲外（{interceptor.id}の基地から{target.id}の飛行経路まで{gap}Hex、"
            f"{reach}Hex以内のみ迎撃可能）"
        )
    return None


def _route(state: NavalState, fighter: Unit, aimed: str | None) -> list[hexgrid.Hex]:
    """A flight's straight hex line as things stand: from the base to the attacked unit, or from where
    the carrier sank to the base it evacuates to ([] when the map may change before it)."""
    start = state.hex_of(fighter)
    if fighter.base is None:
        evacuation = next((e for e in state.evacuations if fighter.id in e.fighters), None)
        start = evacuation.hex if evacuation else None
    end = state.base_hex(aimed) if aimed in state.islands else None
    target = state.units.get(aimed or "")
    if target is not None:
        end = state.hex_of(target)
    return hexgrid.line(start, end) if start is not None and end is not None else []


def _evacuation_problem(
    state: NavalState, fighter: Unit, base: str, before: list[tuple[str, str, str | None]]
) -> str | None:
    """A stranded fighter's ＜移動＞ as things stand: the base within reach of where its carrier sank,
    and its carrier's half not used up by the evacuations entered before it (one half for every base,
    `evacuation_quotas = 1`)."""
    evacuation = next((e for e in state.evacuations if fighter.id in e.fighters), None)
    base_hex = state.base_hex(base)
    if evacuation is None or evacuation.period == state.period or base_hex is None:
        return None  # refused at intake, or the carrier it evacuates to is gone
    reach = state.options.fighter_range
    if (gap := hexgrid.distance(evacuation.hex, base_hex)) > reach:
        return (
            f"退避先が遠すぎます（{evacuation.carrier}の喪失地点{hexgrid.shown(evacuation.hex)}から{gap}Hex、"
            f"{reach}Hex以内のみ）"
        )
    gone = {
        flier
        for kind, flier, aimed in before
        if kind == "move"
        and flier in evacuation.fighters
        and flier != fighter.id
        and (there := state.base_hex(aimed or "")) is not None
        and hexgrid.distance(evacuation.hex, there) <= reach
    }
    if state.options.evacuation_quotas == 1 and evacuation.used + len(gone) >= evacuation.allowed:
        return (
            f"{evacuation.carrier}の艦載機が退避できるのは半数の{evacuation.allowed}機までです"
            f"（先に{'、'.join(sorted(gone))}の退避が入力済み）"
        )
    return None


def _takes_off(state: NavalState, fighter: Unit, kind: str, flier: str, aimed: str | None) -> bool:
    """Whether an earlier order is `fighter`'s flight as things stand: an evacuation, or an attack the
    rules let it make (an attack that cannot start never takes off)."""
    if flier != fighter.id:
        return False
    if kind == "move":
        return True
    target = state.units.get(aimed or "")
    return kind == "attack" and (target is None or _rule_problem(fighter, target) is None)


def _move_problem(state: NavalState, ship: Unit, destination: tuple[int, int]) -> str | None:
    if ship.hex is None:
        return None
    gap = hexgrid.distance(ship.hex, destination)
    if gap == 0:
        return f"{ship.id}は既に{hexgrid.shown(destination)}にいます"
    if gap > state.options.move_range:
        return f"移動できるのは{state.options.move_range}Hexまで（{hexgrid.shown(ship.hex)}から{gap}Hex）"
    return None
