"""The scenario TOML a naval game starts from, read and checked into its first state: the map size,
options, unit kinds and their categories, the islands with their home hex, and the units.
`initial_state` lists every problem at once in Japanese (ScenarioError).

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

import re
from typing import Any

from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.grammar import ISLAND_CODE, UNIT_ID
from engine.rules.naval.hexgrid import Hex
from engine.rules.naval.state import (
    CARRIER,
    CATEGORY_NAMES,
    FIGHTER,
    MAX_MAP,
    OPTION_LIMITS,
    SEA_CONTROL,
    TRANSPORT,
    Island,
    NavalState,
    Options,
    ScenarioError,
    Unit,
    unit_island,
    unit_kind,
)
from engine.ruleset import unknown_keys

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

# `re`, not `regex`: ASCII classes only, which both read alike (and `re` matches a 20,000-unit map's ids
# in half the time).
_UNIT_ID = re.compile(UNIT_ID)
_ISLAND = re.compile(ISLAND_CODE)
_KIND = re.compile(r"[A-Z]+")


@gc_paused
def initial_state(scenario: dict[str, Any]) -> NavalState:
    """The state before the first period, from a parsed scenario TOML. Raises ScenarioError."""
    errors: list[str] = []
    errors += unknown_keys(scenario, ("title", "period", "map", "options", "kinds", "islands", "units"))
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


def _map_size(table: object, errors: list[str]) -> tuple[int, int]:
    if not isinstance(table, dict):
        errors.append("[map] に width と height（Hex数）を書いてください")
        return 1, 1
    errors += unknown_keys(table, {"width", "height"}, "[map]")
    size = []
    for key in ("width", "height"):
        value = table.get(key)
        if not _is_int(value) or not 1 <= value <= MAX_MAP:
            errors.append(f"[map] {key} は1～{MAX_MAP}の整数にしてください（{value!r}）")
            value = 1
        size.append(value)
    return size[0], size[1]


def _options(table: object, errors: list[str]) -> Options:
    options = Options()
    if not isinstance(table, dict):
        errors.append("[options] は表にしてください")
        return options
    errors += unknown_keys(table, set(OPTION_LIMITS), "[options]")
    for key, (low, high) in OPTION_LIMITS.items():
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


_ISLAND_KEYS = frozenset({"code", "home", "permits_evacuation", "players"})


def _plain_hex(value: object, state: NavalState) -> Hex | None:
    """An ordinary `[x, y]` on the map as a hex, or None for `_hex` to check (and say why)."""
    if type(value) is not list or len(value) != 2:
        return None
    x, y = value
    if type(x) is not int or type(y) is not int or not (0 <= x < state.width and 0 <= y < state.height):
        return None
    return x, y


def _islands(entries: object, state: NavalState, errors: list[str]) -> dict[str, Island]:
    if not isinstance(entries, list) or not entries:
        errors.append("[[islands]] に島（code と home）を1つ以上書いてください")
        return {}
    islands: dict[str, Island] = {}
    # The names of places in the messages are written only for a message: 6,000 islands have none.
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            errors.append(f"[[islands]] {number}番目 は表にしてください")
            continue
        if not entry.keys() <= _ISLAND_KEYS:
            errors += unknown_keys(entry, _ISLAND_KEYS, f"[[islands]] {number}番目")
        code = entry.get("code")
        if not isinstance(code, str) or not _ISLAND.fullmatch(code):
            errors.append(
                f"[[islands]] {number}番目 の code「{code}」は英大文字で始まる英数字にしてください（例：ABC）"
            )
            continue
        if code in islands:
            errors.append(f"島 {code} が2回書かれています")
            continue
        place = entry.get("home")
        home = _plain_hex(place, state) or _hex(place, state, f"島 {code} の home", errors)
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


_PLAIN_KEYS = (
    {"id", "kind", "hex", "base", "anti_air", "anti_ship"},
    {"id", "kind", "hex", "base", "anti-air", "anti-ship"},
)


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
    if category == FIGHTER:
        if "hex" in entry:
            return None
        return _filled(unit_id, island, kind, category, anti_air, anti_ship, None), entry.get("base")
    place = entry.get("hex")
    if "base" in entry or type(place) is not list or len(place) != 2:
        return None
    x, y = place
    if type(x) is not int or type(y) is not int or not (0 <= x < state.width and 0 <= y < state.height):
        return None
    return _filled(unit_id, island, kind, category, anti_air, anti_ship, (x, y)), None


def _filled(
    unit_id: str, island: str, kind: str, category: str, anti_air: int, anti_ship: int, hex_: Hex | None
) -> Unit:
    """`Unit(...)` filled through its `__dict__`, in the fields' order: half the cost of `__init__`,
    20,000 times over on a big map (the Hypothesis test of `_plain_unit` compares with `_unit`'s)."""
    unit = _new(Unit)
    unit.__dict__ = {
        "id": unit_id,
        "island": island,
        "kind": kind,
        "category": category,
        "anti_air": anti_air,
        "anti_ship": anti_ship,
        "hex": hex_,
        "base": None,
    }
    return unit


_new = object.__new__


def _unit(
    entry: object, number: int, state: NavalState, units: dict[str, Unit], errors: list[str]
) -> tuple[Unit, object] | None:
    """One [[units]] entry and, for a fighter, its base as written (checked once every unit is known)."""
    where = f"[[units]] {number}番目"
    if not isinstance(entry, dict):
        errors.append(f"{where} は表にしてください")
        return None
    errors += unknown_keys(entry, _UNIT_KEYS, where)
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
