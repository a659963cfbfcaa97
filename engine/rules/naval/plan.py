"""A naval period's orders as the resolver reads them before it carries any out: each order with its
canonical unit ids and its island (`Entry`), the look-ahead tables (`Plan`: each unit's orders, who
attacks and who intercepts whom), and a fighter in the air (`Operation`). Shared by the resolver
(`resolution.py`) and its moves (`movement.py`), which import this module and not each other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.rules.naval.grammar import NavalOrder, NavalOrderError, ParsedOrder
from engine.rules.naval.hexgrid import Hex
from engine.rules.naval.state import NavalState, canonical_ids, unit_island, unit_key


@dataclass(slots=True)
class Entry:
    """One order line of the period, numbered in posting order, with the island that issued it."""

    index: int
    order: ParsedOrder
    island: str | None
    owned: bool = False  # the issuing island owns the acting unit (as the period began)


@dataclass
class Operation:
    """A fighter in the air this period (an attack or an evacuation flight). Whether a later
    ＜インターセプト＞ reaches it is decided when it takes off: `live` are those that do, `refused`
    says why the others do not."""

    index: int
    route: list[Hex]
    live: list[int] = field(default_factory=list)
    refused: dict[int, str] = field(default_factory=dict)
    failed: list[int] = field(default_factory=list)  # reached the route, but could not act at their turn


class Plan:
    """The period's orders as every pass reads them: each with its canonical unit ids and whether the
    issuing island owns the acting unit, and the look-ahead tables (each unit's orders, who attacks and
    who intercepts whom), read before any order is carried out, since forced defeat A and
    interception look ahead in the order list."""

    def __init__(self, state: NavalState, orders: Sequence[ParsedOrder]) -> None:
        self.known = state.units
        self._by_key: dict[tuple[str, ...], str] | None = None
        self.entries = [self._entry(number, order) for number, order in enumerate(orders, start=1)]
        self.orders_of: dict[str, list[int]] = defaultdict(list)
        self.attacks_on: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self.intercepts_on: dict[str, list[int]] = defaultdict(list)
        for entry in self.entries:
            order = entry.order
            if not isinstance(order, NavalOrder) or not entry.owned:
                continue
            self.orders_of[order.unit].append(entry.index)
            if order.kind == "attack" and order.target:
                self.attacks_on[order.target].append((entry.index, order.unit))
            elif order.kind == "intercept" and order.target:
                self.intercepts_on[order.target].append(entry.index)

    def _canonical(self, unit_id: str | None) -> str | None:
        """The id as the scenario writes it, so `ABC-DD-A-1` finds `ABC-DD-A-01` (the lookup is built
        the first time an id is not found as written; an island code, without a dash, is no id)."""
        if unit_id is None or unit_id in self.known or "-" not in unit_id:
            return unit_id
        if self._by_key is None:
            self._by_key = canonical_ids(self.known)
        return self._by_key.get(unit_key(unit_id), unit_id)

    def _entry(self, number: int, order: ParsedOrder) -> Entry:
        if isinstance(order, NavalOrderError):
            return Entry(number, order, order.island)
        unit, target = order.unit, order.target
        known = self.known.get(unit)
        if known is None or (target is not None and target not in self.known):
            unit = self._canonical(unit) or unit
            target = self._canonical(target)
            if unit != order.unit or target != order.target:
                order = replace(order, unit=unit, target=target)
            known = self.known.get(unit)
        island = order.island or unit_island(unit)
        return Entry(number, order, island, known is not None and known.island == island)
