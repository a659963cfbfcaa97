"""Scenario loading and checking, and the state's JSON form."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import RecordedSource
from engine.rules.naval import load_scenario, resolve_period
from engine.rules.naval.grammar import parse_orders_file
from engine.rules.naval.scenario import _hex, _plain_hex, _plain_unit, _unit, initial_state
from engine.rules.naval.state import (
    CARRIER,
    FIGHTER,
    SEA_CONTROL,
    TRANSPORT,
    Island,
    NavalState,
    Options,
    ScenarioError,
    state_from_dict,
    state_to_dict,
)

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "naval"


def scenario(name: str = "duel.toml") -> dict[str, Any]:
    return tomllib.loads((FIXTURES / name).read_text(encoding="utf-8"))


def minimal(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "map": {"width": 8, "height": 8},
        "kinds": {"DD": "sea-control", "F": "fighter", "CV": "carrier", "LST": "transport"},
        "islands": [{"code": "ABC", "home": [0, 0]}, {"code": "XYZ", "home": [7, 7]}],
        "units": [{"id": "ABC-DD-A-01", "hex": [1, 1], "anti_air": 2, "anti_ship": 3}],
    }
    data.update(changes)
    return data


def problems(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as error:
        initial_state(data)
    return str(error.value)


def test_every_fixture_scenario_loads_with_every_island_and_unit_it_lists() -> None:
    paths = sorted(FIXTURES.glob("*.toml"))
    assert len(paths) >= 6
    for path in paths:
        text = path.read_text(encoding="utf-8")
        listed = tomllib.loads(text)
        state = load_scenario(text)
        assert list(state.islands) == [island["code"] for island in listed["islands"]], path.name
        assert list(state.units) == [unit["id"] for unit in listed["units"]], path.name


def test_scenario_gives_categories_positions_and_defaults() -> None:
    state = initial_state(scenario("duel.toml"))
    assert state.period == 1 and (state.width, state.height) == (12, 8)
    assert (state.options.randoms_per_island, state.options.fighter_range, state.options.move_range) == (
        6,
        4,
        1,
    )
    assert state.units["ABC-DD-A-01"].category == SEA_CONTROL
    assert state.units["ABC-CV-A-01"].category == CARRIER
    assert state.units["XYZ-LST-X-01"].category == TRANSPORT
    fighter = state.units["ABC-F-A-02"]
    assert (fighter.category, fighter.base, fighter.hex) == (FIGHTER, "ABC-CV-A-01", None)
    assert state.hex_of(fighter) == (6, 3)
    assert state.hex_of(state.units["ABC-F-A-01"]) == (0, 0)
    assert (state.units["XYZ-LST-X-01"].anti_air, state.units["XYZ-LST-X-01"].anti_ship) == (0, 0)


def test_japanese_category_names_are_accepted() -> None:
    state = initial_state(scenario("seed002.toml"))
    assert state.units["ABC-CG-A-04"].category == SEA_CONTROL
    assert state.units["ABC-F-A-03"].category == FIGHTER


def test_options_and_first_period() -> None:
    state = initial_state(
        minimal(period=3, options={"randoms_per_island": 4, "fighter_range": 5, "move_range": 2})
    )
    assert state.period == 3
    assert (state.options.randoms_per_island, state.options.fighter_range, state.options.move_range) == (
        4,
        5,
        2,
    )


def test_a_fighter_may_be_listed_before_its_carrier() -> None:
    units = [
        {"id": "ABC-F-A-01", "base": "ABC-CV-A-01", "anti_air": 5, "anti_ship": 4},
        {"id": "ABC-CV-A-01", "hex": [2, 2], "anti_air": 1, "anti_ship": 1},
    ]
    assert initial_state(minimal(units=units)).units["ABC-F-A-01"].base == "ABC-CV-A-01"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"map": {"width": 0, "height": 8}}, "[map] width は1～1000の整数にしてください"),
        ({"options": {"randoms_per_island": 27}}, "[options] randoms_per_island は1～26の整数にしてください"),
        ({"options": {"fighter_rang": 4}}, "[options]に知らない項目「fighter_rang」があります"),
        ({"kinds": {"DD": "battleship"}}, "[kinds] DD の区分「battleship」が分かりません"),
        ({"islands": [{"code": "abc", "home": [0, 0]}]}, "code「abc」は英大文字で始まる英数字"),
        ({"islands": [{"code": "ABC", "home": [9, 0]}]}, "島 ABC の home の座標 (9,0) が地図（8×8）の外です"),
        (
            {"islands": [{"code": "ABC", "home": [1, True]}]},
            "島 ABC の home の座標は [x, y] の形で書いてください",
        ),
        (
            {"islands": [{"code": "ABC", "home": [1, 1], "size": 3}]},
            "[[islands]] 1番目に知らない項目「size」があります",
        ),
        ({"islands": ["ABC"]}, "[[islands]] 1番目 は表にしてください"),
        (
            {"islands": [{"code": "ABC", "home": [0, 0], "permits_evacuation": ["QQQ"]}]},
            "permits_evacuation にある「QQQ」は他の島ではありません",
        ),
        ({"units": [{"id": "ABC-DD-01", "hex": [1, 1]}]}, "id「ABC-DD-01」は 島-種別-部隊-番号 の形"),
        (
            {"units": [{"id": "QQQ-DD-A-01", "hex": [1, 1], "anti_air": 1, "anti_ship": 1}]},
            "島 QQQ が [[islands]] にありません",
        ),
        (
            {"units": [{"id": "ABC-BB-A-01", "hex": [1, 1], "anti_air": 1, "anti_ship": 1}]},
            "種別 BB が [kinds] にありません",
        ),
        (
            {"units": [{"id": "ABC-DD-A-01", "kind": "CV", "hex": [1, 1], "anti_air": 1, "anti_ship": 1}]},
            "kind「CV」がユニット名の種別 DD と違います",
        ),
        (
            {"units": [{"id": "ABC-DD-A-01", "hex": [1, 1]}]},
            "anti_air・anti_ship（対空・対艦戦力）を書いてください",
        ),
        (
            {"units": [{"id": "ABC-DD-A-01", "hex": [1, 1], "anti_air": -1, "anti_ship": 2}]},
            "anti_air は0以上の整数",
        ),
        (
            {"units": [{"id": "ABC-DD-A-01", "hex": [1, 9], "anti_air": 1, "anti_ship": 2}]},
            "(1,9) が地図（8×8）の外",
        ),
        (
            {"units": [{"id": "ABC-DD-A-01", "hex": "1,1", "anti_air": 1, "anti_ship": 2}]},
            "座標は [x, y] の形で",
        ),
        (
            {"units": [{"id": "ABC-F-A-01", "anti_air": 1, "anti_ship": 2}]},
            "戦闘機なので base（島名か空母のユニット名）を書いて",
        ),
        (
            {"units": [{"id": "ABC-F-A-01", "base": "ABC-DD-A-09", "anti_air": 1, "anti_ship": 2}]},
            "base「ABC-DD-A-09」は島でも空母でもありません",
        ),
        (
            {"units": [{"id": "ABC-F-A-01", "base": "ABC", "hex": [1, 1], "anti_air": 1, "anti_ship": 2}]},
            "戦闘機なので hex ではなく base",
        ),
        ({"units": [{"id": "ABC-LST-A-01", "hex": [1, 1], "anti_ship": 3}]}, "輸送ユニットなので戦力は0です"),
        (
            {"units": [{"id": "ABC-DD-A-01", "hex": [1, 1], "anti_air": 1, "anti_ship": 2, "speed": 3}]},
            "知らない項目「speed」",
        ),
        ({"turn": 3}, "シナリオに知らない項目「turn」があります"),
    ],
)
def test_bad_scenarios_say_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    assert message in problems(minimal(**changes))


def test_every_problem_is_listed_at_once() -> None:
    text = problems(
        minimal(
            map={"width": 8, "height": 8},
            units=[
                {"id": "ABC-DD-A-01", "hex": [1, 1], "anti_air": 1, "anti_ship": 1},
                {"id": "ABC-DD-A-01", "hex": [1, 1], "anti_air": 1, "anti_ship": 1},
                {"id": "ABC-F-A-01", "base": "XYZ-CV-X-09", "anti_air": 1, "anti_ship": 1},
            ],
        )
    )
    assert "ユニット ABC-DD-A-01 が2回書かれています" in text
    assert "base「XYZ-CV-X-09」は島でも空母でもありません" in text
    assert text.count("\n- ") == 2


def test_a_toml_syntax_error_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="シナリオのTOMLが読めません"):
        load_scenario("[map\nwidth = 3")


def test_state_round_trips_through_json_with_stranded_fighters() -> None:
    state = load_scenario((FIXTURES / "evacuation.toml").read_text(encoding="utf-8"))
    orders = parse_orders_file("XYZ:＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01")
    after = resolve_period(state, orders, RecordedSource({"naval/XYZ": [(100, 12)]})).state
    assert after.evacuations and after.units["ABC-F-A-01"].base is None
    data = json.loads(json.dumps(state_to_dict(after)))
    again = state_from_dict(data)
    assert again == after
    assert again.units["ABC-F-A-01"].hex == (7, 4)
    assert again.evacuations[0].fighters == ["ABC-F-A-01", "ABC-F-A-02", "ABC-F-A-03", "ABC-F-A-04"]


def _as_dataclasses_would(state: NavalState) -> dict:
    """The reference form: `dataclasses.asdict`, hexes as lists (what the stored states were)."""
    from dataclasses import asdict

    data = asdict(state)
    data["islands"] = [asdict(island) for island in state.islands.values()]
    data["units"] = [asdict(unit) for unit in state.units.values()]
    for item in (*data["islands"], *data["units"], *data["evacuations"]):
        for key in ("home", "hex"):
            if item.get(key) is not None:
                item[key] = list(item[key])
    return data


def test_the_json_form_is_the_dataclasses_one_field_for_field() -> None:
    import json

    from engine.rules.naval.api import recorded_randoms, resolve_period

    for path in sorted(FIXTURES.glob("*.toml")):
        state = load_scenario(path.read_text(encoding="utf-8"))
        if path.stem == "evacuation":  # a state with a lost carrier's fighters waiting to evacuate
            orders = parse_orders_file("XYZ:＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01")
            state = resolve_period(state, orders, recorded_randoms(state, {"XYZ": [12]})).state
            assert state.evacuations
        ours, reference = state_to_dict(state), _as_dataclasses_would(state)
        assert json.dumps(ours, ensure_ascii=False) == json.dumps(reference, ensure_ascii=False), path.name


# --- the one-step reading of an ordinary [[units]] entry ---------------------------------------------

_PROBE = NavalState(
    1,
    10,
    8,
    Options(),
    {"DD": "sea-control", "F": "fighter", "CV": "carrier", "LST": "transport"},
    {"ABC": Island("ABC", (1, 1)), "XYZ": Island("XYZ", (5, 5))},
    {},
)
_BASES = [
    {"id": "ABC-DD-A-01", "hex": [2, 3], "anti_air": 3, "anti_ship": 5},
    {"id": "XYZ-F-B-2", "base": "ABC", "anti_air": 1, "anti_ship": 2},
    {"id": "ABC-CV-A-01", "kind": "CV", "hex": [0, 7], "anti-air": 2, "anti-ship": 2},
    {"id": "ABC-LST-A-01", "hex": [9, 0]},
]
_KEYS = ["id", "kind", "hex", "base", "anti_air", "anti-air", "anti_ship", "anti-ship", "strength"]
_VALUES = st.one_of(
    st.integers(-2, 12),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, max_value=9),
    st.sampled_from(
        ["DD", "F", "SS", "ABC", "ABC-CV-A-01", "NOPE", "", "QQQ-DD-A-01", "abc-DD-A-1", "ABC-DD-A"]
    ),
    st.lists(st.integers(-1, 11), max_size=3),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
)
_ENTRIES = st.builds(
    lambda base, changes, dropped: {
        **{key: value for key, value in base.items() if key not in dropped},
        **dict(changes),
    },
    st.sampled_from(_BASES),
    st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=2),
    st.sets(st.sampled_from(_KEYS), max_size=1),
)


@settings(max_examples=300, deadline=None)
@given(_ENTRIES, st.booleans())
def test_the_one_step_reading_agrees_with_the_full_check(entry: dict, taken: bool) -> None:
    """Whatever `_plain_unit` reads, `_unit` reads the same with no problem; what `_plain_unit` leaves,
    `_unit` decides (so every refusal keeps its reason)."""
    units = {"ABC-DD-A-01": None, "XYZ-F-B-2": None} if taken else {}
    quick = _plain_unit(entry, _PROBE, units)  # type: ignore[arg-type]
    errors: list[str] = []
    full = _unit(entry, 1, _PROBE, units, errors)  # type: ignore[arg-type]
    if quick is not None:
        assert errors == [] and full == quick


def test_ordinary_entries_take_the_one_step_reading() -> None:
    for entry in (
        {"id": "ABC-DD-A-01", "hex": [2, 3], "anti_air": 3, "anti_ship": 5},
        {"id": "ABC-F-A-01", "base": "ABC", "anti-air": 4, "anti-ship": 0},
        {"id": "ABC-LST-A-01", "kind": "LST", "hex": [0, 0]},
        {"id": "ABC-LST-A-02", "hex": [0, 0], "anti_air": 0, "anti_ship": 0},
    ):
        assert _plain_unit(entry, _PROBE, {}) is not None, entry


@settings(max_examples=300, deadline=None)
@given(st.one_of(_VALUES, st.lists(st.one_of(st.integers(-2, 12), st.booleans(), st.none()), max_size=3)))
def test_the_one_step_hex_agrees_with_the_full_check(value: object) -> None:
    """An island's home read in one step is what `_hex` reads, with no problem; the rest is `_hex`'s."""
    quick = _plain_hex(value, _PROBE)
    errors: list[str] = []
    full = _hex(value, _PROBE, "島 ABC の home", errors)
    if quick is not None:
        assert errors == [] and full == quick
    elif full is not None:  # only an int subclass (a bool is no int here) takes the long way to a hex
        assert errors == [] and any(type(v) is not int for v in value)  # type: ignore[union-attr]
