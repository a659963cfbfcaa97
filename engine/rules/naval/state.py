"""The naval game's state as plain data and its JSON form: islands, units, evacuations and the
options a scenario sets, the unit-id helpers every module reads ids with, `clone` for a period, and
`working_copy` (what a period changes), `state_to_dict` / `state_from_dict`, the form the periods machinery stores between periods. The
scenario TOML that gives the first state is read in `scenario.py`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.hexgrid import Hex

SEA_CONTROL = "sea-control"
FIGHTER = "fighter"
CARRIER = "carrier"
TRANSPORT = "transport"
CATEGORIES = (SEA_CONTROL, FIGHTER, CARRIER, TRANSPORT)
CATEGORY_NAMES = {SEA_CONTROL: "制海ユニット", FIGHTER: "戦闘機", CARRIER: "空母", TRANSPORT: "輸送ユニット"}
MAX_MAP = 1000


class ScenarioError(ValueError):
    """The scenario cannot be played; the message lists every problem found, in Japanese."""


@dataclass
class Options:
    randoms_per_island: int = 6
    fighter_range: int = 4
    move_range: int = 1
    orders_per_unit: int = 1  # orders a unit may carry out in a period (void ones do not count)
    evacuation_quotas: int = 1  # 1: one half shared by own and foreign bases; 2: a half for each
    last_period: int = 0  # the war ends with this period's update; 0: it goes on until one island is left


OPTION_LIMITS = {
    "randoms_per_island": (1, 26),
    "fighter_range": (0, MAX_MAP),
    "move_range": (0, MAX_MAP),
    "orders_per_unit": (1, 26),
    "evacuation_quotas": (1, 2),
    "last_period": (0, 1_000_000),
}


@dataclass
class Island:
    code: str
    home: Hex
    permits_evacuation: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # `名前◆TRIP`, `◆TRIP` or a bare name; empty: anyone


@dataclass
class Unit:
    """A unit. Ships have a `hex`; fighters have a `base` (an island code or a carrier id) and take
    its hex. A fighter whose carrier was lost has no base and keeps the hex where the carrier sank
    until it evacuates or is lost."""

    id: str
    island: str
    kind: str
    category: str
    anti_air: int
    anti_ship: int
    hex: Hex | None = None
    base: str | None = None


@dataclass
class Evacuation:
    """The fighters of a carrier lost in `period`: `allowed` of them (half, rounded down) may ＜移動＞
    to a base within reach of `hex` during the next period; the rest are then lost."""

    carrier: str
    island: str
    hex: Hex
    period: int
    fighters: list[str]
    allowed: int
    used: int = 0  # evacuated so far (to own bases, when the quotas are separate)
    used_foreign: int = 0  # to other islands' bases, counted apart only when the quotas are separate


@dataclass
class NavalState:
    period: int
    width: int
    height: int
    options: Options
    kinds: dict[str, str]
    islands: dict[str, Island]
    units: dict[str, Unit]
    evacuations: list[Evacuation] = field(default_factory=list)

    def on_map(self, hex_: Hex) -> bool:
        return 0 <= hex_[0] < self.width and 0 <= hex_[1] < self.height

    def base_hex(self, base: str) -> Hex | None:
        """The hex of a base: an island's home hex or a carrier's hex (None if it no longer exists)."""
        if base in self.islands:
            return self.islands[base].home
        carrier = self.units.get(base)
        return carrier.hex if carrier is not None and carrier.category == CARRIER else None

    def hex_of(self, unit: Unit) -> Hex | None:
        """Where a unit is: its own hex, or its base's hex for a fighter."""
        if unit.category == FIGHTER and unit.base is not None:
            return self.base_hex(unit.base)
        return unit.hex


def unit_island(unit_id: str) -> str:
    return unit_id.split("-", 1)[0]


def unit_kind(unit_id: str) -> str:
    return unit_id.split("-")[1]


def unit_key(unit_id: str) -> tuple[str, ...]:
    """An id with its number read as a number: `ABC-DD-A-1` and `ABC-DD-A-01` are the same unit."""
    head, _, number = unit_id.rpartition("-")
    # Not int(): an id may hold thousands of digits, which int() refuses (and ፩ passes isdigit).
    return (head, number.lstrip("0") or "0") if number.isascii() and number.isdigit() else (unit_id,)


def canonical_ids(unit_ids: list[str] | dict[str, object]) -> dict[tuple[str, ...], str]:
    """The lookup from `unit_key` to the id as the scenario writes it."""
    return {unit_key(unit_id): unit_id for unit_id in unit_ids}


class IdLookup:
    """The scenario's spelling of unit ids: an id written as the scenario writes it is itself, any other
    goes through `canonical_ids`, built on the first miss (for 20,000 units that map costs tens of ms,
    and the ids of a post are almost always written as is)."""

    def __init__(self, units: dict[str, Unit], islands: dict[str, Island] | None = None) -> None:
        self.units = units
        self.islands = islands  # when given, an id of no island is no unit, without the map
        self._by_key: dict[tuple[str, ...], str] | None = None

    def get(self, unit_id: str | None) -> str | None:
        if unit_id is None or unit_id in self.units:
            return unit_id
        if self.islands is not None and unit_island(unit_id) not in self.islands:
            return None
        if self._by_key is None:
            self._by_key = canonical_ids(self.units)
        return self._by_key.get(unit_key(unit_id))


def copy_unit(unit: Unit) -> Unit:
    # Through `__dict__`: a period clones every unit of the map, and `Unit(...)` costs four times this.
    new = object.__new__(Unit)
    new.__dict__ = unit.__dict__.copy()
    return new


def _copy_island(island: Island) -> Island:
    new = object.__new__(Island)
    new.__dict__ = {
        **island.__dict__,
        "permits_evacuation": list(island.permits_evacuation),
        "players": list(island.players),
    }
    return new


def clone(state: NavalState) -> NavalState:
    """A copy that resolution may change freely (far cheaper than copy.deepcopy on large maps)."""
    return NavalState(
        state.period,
        state.width,
        state.height,
        replace(state.options),
        dict(state.kinds),
        {code: _copy_island(island) for code, island in state.islands.items()},
        {unit_id: copy_unit(unit) for unit_id, unit in state.units.items()},
        [replace(evacuation, fighters=list(evacuation.fighters)) for evacuation in state.evacuations],
    )


def working_copy(state: NavalState) -> NavalState:
    """A copy for a period to change, sharing the islands and units with `state`: a period changes
    few units (moves, stranded fighters) and copies each with `copy_unit` before it does; it removes
    units from its own dict. Copying all of them (`clone`) was a tenth of a 20,000-unit period."""
    return NavalState(
        state.period,
        state.width,
        state.height,
        state.options,
        state.kinds,
        dict(state.islands),
        dict(state.units),
        [replace(evacuation, fighters=list(evacuation.fighters)) for evacuation in state.evacuations],
    )


# --- JSON form ------------------------------------------------------------------------------------


@gc_paused
def state_to_dict(state: NavalState) -> dict[str, Any]:
    """Plain JSON-ready data (hexes as [x, y] lists), in the fields' order. Built field by field in
    one walk: the state of a big game has tens of thousands of units, and `asdict` copies each twice."""
    return {
        "period": state.period,
        "width": state.width,
        "height": state.height,
        "options": {f.name: getattr(state.options, f.name) for f in fields(Options)},
        "kinds": dict(state.kinds),
        "islands": [
            {
                "code": island.code,
                "home": list(island.home),
                "permits_evacuation": list(island.permits_evacuation),
                "players": list(island.players),
            }
            for island in state.islands.values()
        ],
        "units": [
            {
                "id": unit.id,
                "island": unit.island,
                "kind": unit.kind,
                "category": unit.category,
                "anti_air": unit.anti_air,
                "anti_ship": unit.anti_ship,
                "hex": list(unit.hex) if unit.hex is not None else None,
                "base": unit.base,
            }
            for unit in state.units.values()
        ],
        "evacuations": [
            {
                "carrier": e.carrier,
                "island": e.island,
                "hex": list(e.hex),
                "period": e.period,
                "fighters": list(e.fighters),
                "allowed": e.allowed,
                "used": e.used,
                "used_foreign": e.used_foreign,
            }
            for e in state.evacuations
        ],
    }


def _hex_or_none(value: Any) -> Hex | None:
    return None if value is None else (int(value[0]), int(value[1]))


@gc_paused
def state_from_dict(data: dict[str, Any]) -> NavalState:
    """The inverse of `state_to_dict`."""
    islands = {
        item["code"]: Island(
            item["code"],
            _hex_or_none(item["home"]) or (0, 0),
            list(item["permits_evacuation"]),
            list(item.get("players", [])),
        )
        for item in data["islands"]
    }
    units = {
        item["id"]: Unit(
            item["id"],
            item["island"],
            item["kind"],
            item["category"],
            item["anti_air"],
            item["anti_ship"],
            _hex_or_none(item.get("hex")),
            item.get("base"),
        )
        for item in data["units"]
    }
    evacuations = [
        Evacuation(
            item["carrier"],
            item["island"],
            _hex_or_none(item["hex"]) or (0, 0),
            item["period"],
            list(item["fighters"]),
            item["allowed"],
            item.get("used", 0),
            item.get("used_foreign", 0),
        )
        for item in data.get("evacuations", [])
    ]
    return NavalState(
        data["period"],
        data["width"],
        data["height"],
        Options(**data["options"]),
        dict(data["kinds"]),
        islands,
        units,
        evacuations,
    )
