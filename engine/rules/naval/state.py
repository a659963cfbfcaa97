"""The naval game's state as plain data, the scenario TOML it starts from, and its JSON form.

A scenario (TOML, written by the GM) holds the map size, options, the unit kinds and their categories,
the islands with their home hex, and the units. `initial_state` checks all of it and lists every
problem at once in Japanese. `state_to_dict` / `state_from_dict` give the JSON form the periods
machinery stores between periods.

    period = 1                       # optional, the number of the first period
    [map]
    width = 16
    height = 16
    [options]                        # all optional
    randoms_per_island = 6           # random numbers A, B, C, ... published per island and period
    fighter_range = 4                # hexes a fighter reaches from its base
    move_range = 1                   # hexes a ship may ＜移動＞ per period
    last_period = 10                 # the war ends with this period's update (0: when one island is left)
    [kinds]                          # unit kind (the KIND of ISLAND-KIND-GROUP-NN) → category
    DD = "sea-control"               # or 制海; fighter/制空/戦闘機; carrier/空母; transport/輸送
    [[islands]]
    code = "ABC"
    home = [2, 3]                    # the island's base hex (箱庭 coordinates, see naval_hex)
    permits_evacuation = ["DEF"]     # islands whose fighters may evacuate to ABC's bases
    players = ["名前◆TRIP"]          # optional: who may order ABC's units (none: anyone)
    [[units]]
    id = "ABC-DD-A-01"
    hex = [5, 5]                     # ships; fighters give `base` (an island code or a carrier id)
    anti_air = 3
    anti_ship = 10
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import regex

from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.grammar import ISLAND_CODE, UNIT_ID
from engine.rules.naval.hexgrid import Hex

SEA_CONTROL = "sea-control"
FIGHTER = "fighter"
CARRIER = "carrier"
TRANSPORT = "transport"
CATEGORIES = (SEA_CONTROL, FIGHTER, CARRIER, TRANSPORT)
CATEGORY_NAMES = {SEA_CONTROL: "制海ユニット", FIGHTER: "戦闘機", CARRIER: "空母", TRANSPORT: "輸送ユニット"}
_CATEGORY_ALIASES = {
    "sea-control": SEA_CONTROL,
    "sea_control": SEA_CONTROL,
    "制海": SEA_CONTROL,
    "制海ユニット": SEA_CONTROL,
    "fighter": FIGHTER,
    "制空": FIGHTER,
    "制空ユニット": FIGHTER,
    "戦闘機": FIGHTER,
    "carrier": CARRIER,
    "空母": CARRIER,
    "transport": TRANSPORT,
    "輸送": TRANSPORT,
    "輸送ユニット": TRANSPORT,
}

_UNIT_ID = regex.compile(UNIT_ID)
_ISLAND = regex.compile(ISLAND_CODE)
_KIND = regex.compile(r"[A-Z]+")
_MAX_MAP = 1000


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


_OPTION_LIMITS = {
    "randoms_per_island": (1, 26),
    "fighter_range": (0, _MAX_MAP),
    "move_range": (0, _MAX_MAP),
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


# --- scenario -------------------------------------------------------------------------------------


@gc_paused
def initial_state(scenario: dict[str, Any]) -> NavalState:
    """The state before the first period, from a parsed scenario TOML. Raises ScenarioError."""
    errors: list[str] = []
    _unknown_keys(
        scenario, {"title", "period", "map", "options", "kinds", "islands", "units"}, "シナリオ", errors
    )
    width, height = _map_size(scenario.get("map"), errors)
    options = _options(scenario.get("options", {}), errors)
    period = scenario.get("period", 1)
    if not _is_int(period) or period < 1:
        errors.append(f"period は1以上の整数にしてください（{period!r}）")
        period = 1
    kinds = _kinds(scenario.get("kinds"), errors)
    probe = NavalState(period, width, height, options, kinds, {}, {})
    islands = _islands(scenario.get("islands"), probe, errors)
    probe.islands = islands
    units = _units(scenario.get("units"), probe, errors)
    if errors:
        raise ScenarioError("シナリオに誤りがあります：\n" + "\n".join(f"- {error}" for error in errors))
    return NavalState(period, width, height, options, kinds, islands, units)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown_keys(table: dict[str, Any], known: set[str], where: str, errors: list[str]) -> None:
    for key in table:
        if key not in known:
            errors.append(
                f"{where}に知らない項目「{key}」があります（使えるのは {', '.join(sorted(known))}）"
            )


def _map_size(table: object, errors: list[str]) -> tuple[int, int]:
    if not isinstance(table, dict):
        errors.append("[map] に width と height（Hex数）を書いてください")
        return 1, 1
    _unknown_keys(table, {"width", "height"}, "[map]", errors)
    size = []
    for key in ("width", "height"):
        value = table.get(key)
        if not _is_int(value) or not 1 <= value <= _MAX_MAP:
            errors.append(f"[map] {key} は1～{_MAX_MAP}の整数にしてください（{value!r}）")
            value = 1
        size.append(value)
    return size[0], size[1]


def _options(table: object, errors: list[str]) -> Options:
    options = Options()
    if not isinstance(table, dict):
        errors.append("[options] は表にしてください")
        return options
    _unknown_keys(table, set(_OPTION_LIMITS), "[options]", errors)
    for key, (low, high) in _OPTION_LIMITS.items():
        if key not in table:
            continue
        value = table[key]
        if not _is_int(value) or not low <= value <= high:
            errors.append(f"[options] {key} は{low}～{high}の整数にしてください（{value!r}）")
        else:
            setattr(options, key, value)
    return options


def _kinds(table: object, errors: list[str]) -> dict[str, str]:
    if not isinstance(table, dict) or not table:
        errors.append('[kinds] にユニット種別と区分を書いてください（例：DD = "sea-control"、F = "fighter"）')
        return {}
    kinds: dict[str, str] = {}
    for kind, category in table.items():
        if not _KIND.fullmatch(kind):
            errors.append(f"[kinds] の種別「{kind}」は英大文字だけにしてください（例：DD、CG、F、CV）")
            continue
        resolved = _CATEGORY_ALIASES.get(str(category).strip().lower()) if isinstance(category, str) else None
        if resolved is None:
            errors.append(
                f"[kinds] {kind} の区分「{category}」が分かりません（sea-control/制海、fighter/戦闘機、carrier/空母、transport/輸送）"
            )
            continue
        kinds[kind] = resolved
    return kinds


def _hex(value: object, state: NavalState, where: str, errors: list[str]) -> Hex | None:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        errors.append(f"{where} の座標は [x, y] の形で書いてください（{value!r}）")
        return None
    hex_ = (value[0], value[1])
    if not state.on_map(hex_):
        errors.append(f"{where} の座標 ({hex_[0]},{hex_[1]}) が地図（{state.width}×{state.height}）の外です")
        return None
    return hex_


def _islands(entries: object, state: NavalState, errors: list[str]) -> dict[str, Island]:
    if not isinstance(entries, list) or not entries:
        errors.append("[[islands]] に島（code と home）を1つ以上書いてください")
        return {}
    islands: dict[str, Island] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"[[islands]] {number}番目"
        if not isinstance(entry, dict):
            errors.append(f"{where} は表にしてください")
            continue
        _unknown_keys(entry, {"code", "home", "permits_evacuation", "players"}, where, errors)
        code = entry.get("code")
        if not isinstance(code, str) or not _ISLAND.fullmatch(code):
            errors.append(f"{where} の code「{code}」は英大文字で始まる英数字にしてください（例：ABC）")
            continue
        if code in islands:
            errors.append(f"島 {code} が2回書かれています")
            continue
        home = _hex(entry.get("home"), state, f"島 {code} の home", errors)
        permits = entry.get("permits_evacuation", [])
        if not isinstance(permits, list) or not all(isinstance(p, str) for p in permits):
            errors.append(f"島 {code} の permits_evacuation は島名の配列にしてください")
            permits = []
        players = entry.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            errors.append(f"島 {code} の players はプレイヤー（名前◆トリップ）の文字列の配列にしてください")
            players = []
        islands[code] = Island(code, home or (0, 0), list(permits), [p.strip() for p in players])
    for island in islands.values():
        for guest in island.permits_evacuation:
            if guest not in islands or guest == island.code:
                errors.append(
                    f"島 {island.code} の permits_evacuation にある「{guest}」は他の島ではありません"
                )
    return islands


_UNIT_KEYS = {"id", "kind", "hex", "base", "anti_air", "anti-air", "anti_ship", "anti-ship"}


def _strength(entry: dict[str, Any], name: str, where: str, errors: list[str]) -> int | None:
    values = [entry[key] for key in (name, name.replace("_", "-")) if key in entry]
    if len(values) > 1:
        errors.append(f"{where} の {name} が2回書かれています")
        return None
    if not values:
        return None
    value = values[0]
    if not _is_int(value) or value < 0:
        errors.append(f"{where} の {name} は0以上の整数にしてください（{value!r}）")
        return None
    return value


def _has_key(entry: dict[str, Any], name: str) -> bool:
    return name in entry or name.replace("_", "-") in entry


def _units(entries: object, state: NavalState, errors: list[str]) -> dict[str, Unit]:
    if entries is None:
        return {}
    if not isinstance(entries, list):
        errors.append("[[units]] はユニットの表の配列にしてください")
        return {}
    units: dict[str, Unit] = {}
    fighters: list[tuple[Unit, object, str]] = []
    for number, entry in enumerate(entries, start=1):
        unit_and_base = _plain_unit(entry, state, units)
        if unit_and_base is None:  # anything out of the ordinary: the full check, with its reasons
            unit_and_base = _unit(entry, number, state, units, errors)
        if unit_and_base is None:
            continue
        unit, base = unit_and_base
        units[unit.id] = unit
        if unit.category == FIGHTER:
            fighters.append((unit, base, f"ユニット {unit.id}"))
    # Bases are checked once every unit is known, so a fighter may be listed before its carrier.
    for unit, base, where in fighters:
        if not isinstance(base, str) or not base:
            errors.append(f"{where} は戦闘機なので base（島名か空母のユニット名）を書いてください")
        elif base in state.islands or (base in units and units[base].category == CARRIER):
            unit.base = base
        else:
            errors.append(f"{where} の base「{base}」は島でも空母でもありません")
    return units


_PLAIN_KEYS = ({"id", "kind", "hex", "base", "anti_air", "anti_ship"}, {"id", "kind", "hex", "base", "anti-air", "anti-ship"})


def _plain_unit(entry: object, state: NavalState, units: dict[str, Unit]) -> tuple[Unit, object] | None:
    """The unit of an entry written the ordinary way (every check of `_unit` passes) in one step, or
    None for `_unit` to look at: a 20,000-unit scenario spent most of its load in `_unit`'s calls.
    It never decides a refusal, so what is refused, and why, stays `_unit`'s."""
    if type(entry) is not dict:
        return None
    keys = entry.keys()
    if not (keys <= _PLAIN_KEYS[0] or keys <= _PLAIN_KEYS[1]):
        return None
    unit_id = entry.get("id")
    if type(unit_id) is not str or unit_id in units or not _UNIT_ID.fullmatch(unit_id):
        return None
    island, kind = unit_id.split("-", 2)[:2]
    category = state.kinds.get(kind)
    if category is None or island not in state.islands or entry.get("kind", kind) != kind:
        return None
    anti_air = entry.get("anti_air", entry.get("anti-air", 0 if category == TRANSPORT else None))
    anti_ship = entry.get("anti_ship", entry.get("anti-ship", 0 if category == TRANSPORT else None))
    if category == TRANSPORT:  # nothing written, or zeros
        if type(anti_air) is not int or type(anti_ship) is not int or anti_air or anti_ship:
            return None
    elif type(anti_air) is not int or type(anti_ship) is not int or anti_air < 0 or anti_ship < 0:
        return None
    unit = Unit(unit_id, island, kind, category, anti_air, anti_ship)
    if category == FIGHTER:
        return (unit, entry.get("base")) if "hex" not in entry else None
    place = entry.get("hex")
    if "base" in entry or type(place) is not list or len(place) != 2:
        return None
    x, y = place
    if type(x) is not int or type(y) is not int or not (0 <= x < state.width and 0 <= y < state.height):
        return None
    unit.hex = (x, y)
    return unit, None


def _unit(
    entry: object, number: int, state: NavalState, units: dict[str, Unit], errors: list[str]
) -> tuple[Unit, object] | None:
    """One [[units]] entry and, for a fighter, its base as written (checked once every unit is known)."""
    where = f"[[units]] {number}番目"
    if not isinstance(entry, dict):
        errors.append(f"{where} は表にしてください")
        return None
    _unknown_keys(entry, _UNIT_KEYS, where, errors)
    unit_id = _unit_id(entry, where, state, units, errors)
    if unit_id is None:
        return None
    where = f"ユニット {unit_id}"
    island, kind = unit_island(unit_id), unit_kind(unit_id)
    category = state.kinds[kind]
    strengths = _strengths(entry, category, where, errors)
    if strengths is None:
        return None
    unit = Unit(unit_id, island, kind, category, *strengths)
    if category == FIGHTER:
        if "hex" in entry:
            errors.append(f"{where} は戦闘機なので hex ではなく base（配属基地）を書いてください")
        return unit, entry.get("base")
    if "base" in entry:
        errors.append(f"{where} は{CATEGORY_NAMES[category]}なので base ではなく hex を書いてください")
    hex_ = _hex(entry.get("hex"), state, where, errors)
    if hex_ is None:
        return None
    unit.hex = hex_
    return unit, None


def _unit_id(
    entry: dict[str, Any], where: str, state: NavalState, units: dict[str, Unit], errors: list[str]
) -> str | None:
    """The entry's id, if it is well formed, new, and names a known island and kind."""
    unit_id = entry.get("id")
    if not isinstance(unit_id, str) or not _UNIT_ID.fullmatch(unit_id):
        errors.append(f"{where} の id「{unit_id}」は 島-種別-部隊-番号 の形にしてください（例：ABC-DD-A-01）")
        return None
    where = f"ユニット {unit_id}"
    if unit_id in units:
        errors.append(f"{where} が2回書かれています")
        return None
    island, kind = unit_island(unit_id), unit_kind(unit_id)
    if island not in state.islands:
        errors.append(f"{where} の島 {island} が [[islands]] にありません")
        return None
    if "kind" in entry and entry["kind"] != kind:
        errors.append(f"{where} の kind「{entry['kind']}」がユニット名の種別 {kind} と違います")
        return None
    if kind not in state.kinds:
        errors.append(f"{where} の種別 {kind} が [kinds] にありません")
        return None
    return unit_id


def _strengths(entry: dict[str, Any], category: str, where: str, errors: list[str]) -> tuple[int, int] | None:
    """(anti-air, anti-ship); a transport's are 0 whatever is written."""
    anti_air = _strength(entry, "anti_air", where, errors)
    anti_ship = _strength(entry, "anti_ship", where, errors)
    if category == TRANSPORT:
        if anti_air or anti_ship:
            errors.append(f"{where} は輸送ユニットなので戦力は0です（anti_air・anti_ship は書かないか0に）")
        return 0, 0
    if anti_air is None or anti_ship is None:
        absent = [name for name in ("anti_air", "anti_ship") if not _has_key(entry, name)]
        if absent:
            errors.append(f"{where} に {'・'.join(absent)}（対空・対艦戦力）を書いてください")
        return None
    return anti_air, anti_ship


def _copy_unit(unit: Unit) -> Unit:
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
        {unit_id: _copy_unit(unit) for unit_id, unit in state.units.items()},
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
