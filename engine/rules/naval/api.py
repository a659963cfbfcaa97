"""The naval combat ruleset of seed 002 (＜攻撃＞, random numbers A–F per island): the plugin face.

Everything the periods machinery and the CLI call is here: `ID`, `NAME`, `HELP`, `initial_state`,
`parse_order`, `check_order`, `resolve` (the pure period function), `resolve_period` (the same, with
the structured result), `state_to_dict` / `state_from_dict`, and `adjudicate` for the offline GM
preview (`threadgm adjudicate naval`). The rules live in `resolution.py` (with `results.py`, `randoms.py`
and `combat.py`), the state and scenario in `state.py`, the geometry in `hexgrid.py`, the wording in
`report.py` and `help.py`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence

from engine.report import Report
from engine.rng import RandomSource, RecordedSource
from engine.rules.naval.big_game import gc_paused, read_toml
from engine.rules.naval.grammar import (
    NavalOrder,
    NavalOrderError,
    ParsedOrder,
    RandomsFileError,
    parse_order,
)
from engine.rules.naval.help import HELP
from engine.rules.naval.randoms import RandomsShortError
from engine.rules.naval.report import build_report, resolution_to_dict
from engine.rules.naval.resolution import resolve_period
from engine.rules.naval.results import Resolution
from engine.rules.naval.scenario import initial_state
from engine.rules.naval.state import (
    CARRIER,
    CATEGORY_NAMES,
    FIGHTER,
    IdLookup,
    NavalState,
    ScenarioError,
    Unit,
    state_from_dict,
    state_to_dict,
    unit_island,
    unit_key,
)

ID = "naval"
NAME = "海戦ルール（TRPG戦闘処理）"

__all__ = [
    "HELP",
    "ID",
    "NAME",
    "NavalOrder",
    "NavalOrderError",
    "NavalState",
    "RandomsFileError",
    "RandomsShortError",
    "Resolution",
    "ScenarioError",
    "check_order",
    "initial_state",
    "load_scenario",
    "parse_order",
    "recorded_randoms",
    "resolution_to_dict",
    "resolve",
    "resolve_period",
    "state_from_dict",
    "state_to_dict",
]


def resolve(
    state: NavalState, orders: Sequence[ParsedOrder], source: RandomSource
) -> tuple[NavalState, Report]:
    """One period: the next state and the Report to post (its `meta["result"]` is the JSON result)."""
    resolution = resolve_period(state, orders, source)
    return resolution.state, build_report(resolution)


@gc_paused
def load_scenario(text: str) -> NavalState:
    """A scenario TOML's text to the initial state; a TOML syntax error is a ScenarioError too."""
    try:
        data = read_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"シナリオのTOMLが読めません：{error}") from error
    return initial_state(data)


def check_order(state: NavalState, order: NavalOrder, island: str | None = None) -> NavalOrderError | None:
    """The receipt check when an order is posted: do the units exist, and is the acting unit the
    poster's? Whether the order will be valid is only known at the period's resolution."""
    ids = IdLookup(state.units, state.islands)
    island = island or order.island or unit_island(order.unit)
    unit_id = ids.get(order.unit)
    if unit_id is None:
        why = f"ユニット{order.unit}は存在しません{_maybe(state, order.unit)}"
        return NavalOrderError(order.raw, why, island, post=order.post)
    owner = state.units[unit_id].island
    if owner != island:
        return NavalOrderError(
            order.raw,
            f"{unit_id}は{owner}島のユニットです（{island}島からは命令できません）",
            island,
            post=order.post,
        )
    if order.kind == "move" and (form := _move_form(state, state.units[unit_id], order)):
        return NavalOrderError(order.raw, form, island, post=order.post)
    if order.target is None:
        return None
    target_id = ids.get(order.target)
    if order.kind == "move":
        is_carrier = target_id is not None and state.units[target_id].category == CARRIER
        if order.target not in state.islands and not is_carrier:
            return NavalOrderError(
                order.raw, f"退避先{order.target}は基地（島）でも空母でもありません", island, post=order.post
            )
        return None
    if target_id is None:
        why = f"目標のユニット{order.target}は存在しません{_maybe(state, order.target)}"
        return NavalOrderError(order.raw, why, island, post=order.post)
    return None


def _maybe(state: NavalState, unit_id: str) -> str:
    """The one unit of the island whose id differs from a mistyped one in its kind or its group alone
    (`XYZ-DD-Y-01` for XYZ-DD-X-01), as 「（もしかして: …）」; nothing when there is none or more."""
    typed = _parts(unit_id)
    if typed[0] not in state.islands:
        return ""  # the island is never the mistyped part
    island = f"{typed[0]}-"
    near = [
        known
        for known in state.units
        if known.startswith(island)  # its island's units only
        and len(key := _parts(known)) == len(typed)
        and key[-1] == typed[-1]  # a number is no typo to guess at: ABC-DD-A-09 may be one sunk
        and sum(a != b for a, b in zip(key, typed, strict=True)) == 1
    ]
    return f"（もしかして: {near[0]}）" if len(near) == 1 else ""


def _move_form(state: NavalState, unit: Unit, order: NavalOrder) -> str | None:
    """What resolution would refuse in a ＜移動＞ from its form alone, whatever happens first: a
    fighter moves only to a base, and only to evacuate the period after its carrier was lost, to a base
    whose island lets it in; a ship only to a hex on the map (the same words as resolution's)."""
    if unit.category == FIGHTER:
        return _evacuation_form(state, unit, order)
    if order.to_hex is None:
        return f"{CATEGORY_NAMES[unit.category]}の移動先は座標(x,y)で指定してください"
    if not state.on_map(order.to_hex):
        x, y = order.to_hex
        return f"移動先({x},{y})は地図（{state.width}×{state.height}）の外です"
    return None


def _evacuation_form(state: NavalState, fighter: Unit, order: NavalOrder) -> str | None:
    if order.to_hex is not None:
        return "退避先は基地の島名か空母のユニット名で指定してください"
    if fighter.base is not None:
        return "戦闘機の＜移動＞は所属空母が敗戦したときの退避だけです"
    evacuation = next((e for e in state.evacuations if fighter.id in e.fighters), None)
    if evacuation is not None and evacuation.period == state.period:
        return f"退避は所属空母{evacuation.carrier}が敗戦した次のピリオドに限り実行できます"
    target = order.target
    host = target if target in state.islands else None
    if host is None and target in state.units and state.units[target].category == CARRIER:
        host = state.units[target].island
    if (
        host is not None
        and host != fighter.island
        and fighter.island not in state.islands[host].permits_evacuation
    ):
        return f"{host}島が{fighter.island}島の退避を許可していないため{target}には退避できません"
    return None


def _parts(unit_id: str) -> list[str]:
    head, *number = unit_key(unit_id)
    return [*head.split("-"), *number]


def recorded_randoms(state: NavalState, randoms: dict[str, list[int]]) -> RecordedSource:
    """Published random numbers as a source; islands unknown to the scenario or too many numbers are
    errors, since they mean the file does not belong to this game."""
    count = state.options.randoms_per_island
    for island, values in randoms.items():
        if island not in state.islands:
            known = "、".join(state.islands)
            raise RandomsFileError(f"乱数ファイルの島{island}はシナリオにありません（シナリオの島：{known}）")
        if len(values) > count:
            raise RandomsFileError(f"島{island}の乱数が{len(values)}個あります（1ピリオドに{count}個まで）")
    return RecordedSource(
        {f"naval/{island}": [(100, v) for v in values] for island, values in randoms.items()}
    )
