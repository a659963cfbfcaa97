"""The naval ruleset's plugin face: its shape, `resolve` as a pure function, reports and receipts."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.offline.adjudicate import adjudicate, starting_state
from engine.report import Anchor, Line, Report, Section, Table
from engine.rng import SeededSource
from engine.rules import naval
from engine.rules.naval.combat import attacker_wins, threshold
from engine.rules.naval.grammar import NavalOrder, NavalOrderError, parse_orders_file
from engine.rules.naval.results import MOVED
from engine.rules.naval.state import Evacuation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "naval"
SEED_ORDERS = (FIXTURES / "seed002_orders.txt").read_text(encoding="utf-8")
EXAMPLE1 = (FIXTURES / "seed002_example1_randoms.txt").read_text(encoding="utf-8")


def state_of(name: str) -> naval.NavalState:
    return naval.load_scenario((FIXTURES / name).read_text(encoding="utf-8"))


def test_plugin_shape() -> None:
    assert naval.ID == "naval"
    assert "海戦" in naval.NAME
    for reading in (
        "51～100で攻撃側",
        "同じHex",
        "端数切り捨て",
        "Bが優先",
        "無効になった命令（射程外、目標がすでにいない、など）は数えない",
        "orders_per_unit",
        "evacuation_quotas",
        "次のピリオドに限り",
        "乱数を割り当てず",
        "(x,y)",
    ):
        assert reading in naval.HELP, reading
    assert isinstance(naval.parse_order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05"), NavalOrder)
    assert naval.parse_order("こんにちは") is None


@pytest.mark.parametrize(("difference", "expected"), [(0, 50), (1, 33), (2, 25), (5, 14), (8, 10), (98, 1)])
def test_threshold_is_floor_of_100_over_difference_plus_2(difference: int, expected: int) -> None:
    assert threshold(difference) == expected


def test_equal_strength_splits_the_hundred_numbers_evenly() -> None:
    wins = [value for value in range(1, 101) if attacker_wins(7, 7, value)]
    assert wins == list(range(51, 101))


def test_the_stronger_side_loses_with_probability_below_one_over_difference_plus_two() -> None:
    losses = [value for value in range(1, 101) if not attacker_wins(10, 5, value)]
    assert losses == list(range(1, 14))


def test_resolve_is_pure_and_reports_every_island_and_order() -> None:
    state = state_of("seed002.toml")
    before = copy.deepcopy(state)
    orders = parse_orders_file(SEED_ORDERS)
    source = naval.recorded_randoms(state, {"ABC": [50, 60, 80, 51, 33, 90], "XYZ": [45, 15, 70, 22, 64, 38]})
    after, report = naval.resolve(state, orders, source)
    assert state == before
    assert after.period == 2
    assert "XYZ-DD-X-05" in before.units and "XYZ-DD-X-05" not in after.units
    assert isinstance(report, Report)
    plain = report.plain.splitlines()
    assert plain[0] == "【海戦処理 第1ピリオド】"
    assert "ABC 50 60 80 51 33 90" in plain and "XYZ 45 15 70 22 64 38" in plain
    order_lines = [text for text in plain if text[:2] in {f"{n}." for n in range(1, 8)}]
    assert len(order_lines) == 7
    assert (
        order_lines[2]
        == "3.XYZ:＜攻撃＞XYZ-F-X-07、ABC-DD-A-01 → ＜インターセプト＞により無効（4番目の＜インターセプト＞）"
    )
    assert order_lines[3].startswith("4.ABC:＜インターセプト＞ABC-F-A-03、XYZ-F-X-07 → [ABC]の乱数C（")
    assert order_lines[6].endswith("→ XYZ-CG-X-12敗戦・消滅（ABC-CG-A-11勝利）")
    tables = [block for section in report.blocks if isinstance(section, Section) for block in section.blocks]
    assert any(
        isinstance(block, Table) and block.header == ("島", "A", "B", "C", "D", "E", "F") for block in tables
    )
    assert report.meta["result"]["orders"][4]["random"] == {"island": "XYZ", "letter": "A", "value": 45}


def test_the_random_numbers_come_from_one_stream_per_island() -> None:
    state = state_of("seed002.toml")
    key = b"k" * 32
    _, report = naval.resolve(state, parse_orders_file(SEED_ORDERS), SeededSource(key))
    streams = {island: SeededSource(key).stream(f"naval/{island}") for island in ("ABC", "XYZ")}
    expected = {island: [dice.roll(100) for _ in range(6)] for island, dice in streams.items()}
    published = report.meta["result"]["randoms"]
    assert {island: list(values.values()) for island, values in published.items()} == expected
    again = naval.resolve(state, parse_orders_file(SEED_ORDERS), SeededSource(key))[1]
    assert again.plain == report.plain


def test_post_numbers_become_anchors_and_replies() -> None:
    state = state_of("seed002.toml")
    orders = [replace(order, post=10 + n) for n, order in enumerate(parse_orders_file(SEED_ORDERS))]
    source = naval.recorded_randoms(state, {"ABC": [50, 60, 80, 51], "XYZ": [45, 15]})
    _, report = naval.resolve(state, orders, source)
    assert report.reply_to == tuple(range(10, 17))
    first_line = report.blocks[3]
    assert isinstance(first_line, Line) and first_line.spans[0] == Anchor(10)
    assert first_line.plain.startswith(">>10 1.ABC:＜攻撃＞")


def test_a_period_without_orders_still_publishes_the_numbers_and_ends() -> None:
    state = state_of("duel.toml")
    after, report = naval.resolve(state, [], SeededSource(b"x" * 32))
    assert after.period == 2 and after.units == state.units
    assert "このピリオドの命令はありません" in report.plain
    assert len(report.meta["result"]["randoms"]["ABC"]) == 6


def test_state_survives_json_between_periods() -> None:
    state = state_of("seed002.toml")
    after, _ = naval.resolve(
        state,
        parse_orders_file(SEED_ORDERS),
        naval.recorded_randoms(state, {"ABC": [50, 60, 80, 51], "XYZ": [45, 15]}),
    )
    stored = json.dumps(naval.state_to_dict(after), ensure_ascii=False)
    assert naval.state_from_dict(json.loads(stored)) == after


def test_recorded_numbers_that_run_out_are_a_clear_error() -> None:
    state = state_of("seed002.toml")
    source = naval.recorded_randoms(state, {"ABC": [50, 60], "XYZ": [45, 15]})
    with pytest.raises(
        naval.RandomsShortError, match="ABC島の乱数が足りません：乱数Cが必要ですが2個しか与えられていません"
    ):
        naval.resolve(state, parse_orders_file(SEED_ORDERS), source)


@pytest.mark.parametrize(
    ("randoms", "message"),
    [
        ({"QQQ": [1]}, "乱数ファイルの島QQQはシナリオにありません"),
        ({"ABC": [1, 2, 3, 4, 5, 6, 7]}, "島ABCの乱数が7個あります（1ピリオドに6個まで）"),
    ],
)
def test_randoms_that_do_not_belong_to_the_game_are_refused(
    randoms: dict[str, list[int]], message: str
) -> None:
    with pytest.raises(naval.RandomsFileError, match=message):
        naval.recorded_randoms(state_of("seed002.toml"), randoms)


def stranded(period_lost: int) -> naval.NavalState:
    """seed002 with ABC-F-A-03 off its base at (5,3), its carrier lost in `period_lost`."""
    state = state_of("seed002.toml")
    fighter = state.units["ABC-F-A-03"]
    fighter.base, fighter.hex = None, (5, 3)
    state.evacuations.append(Evacuation("ABC-CV-A-09", "ABC", (5, 3), period_lost, ["ABC-F-A-03"], 1))
    return state


@pytest.mark.parametrize(
    ("line", "lost", "reason"),
    [
        ("＜移動＞ABC-F-A-03、QQQ", 0, "退避先QQQは基地（島）でも空母でもありません"),
        ("＜移動＞ABC-F-A-03、XYZ", 0, "XYZ島がABC島の退避を許可していないためXYZには退避できません"),
        ("＜移動＞ABC-F-A-03、ABC", 1, "退避は所属空母ABC-CV-A-09が敗戦した次のピリオドに限り実行できます"),
        ("＜移動＞ABC-F-A-03、ABC", 0, None),
    ],
)
def test_an_evacuation_resolution_would_refuse_is_refused_at_receipt_in_its_words(
    line: str, lost: int, reason: str | None
) -> None:
    state = stranded(lost)
    order = naval.parse_order(line)
    assert isinstance(order, NavalOrder)
    rejection = naval.check_order(state, order, "ABC")
    assert (rejection.reason if rejection else None) == reason
    (result,) = naval.resolve_period(state, [order], SeededSource(b"k" * 32)).results
    assert result.reason == reason or (reason is None and result.result == MOVED)


@pytest.mark.parametrize(
    ("line", "island", "reason"),
    [
        ("＜攻撃＞ABC-DD-A-09、XYZ-DD-X-05", "ABC", "ユニットABC-DD-A-09は存在しません"),
        (
            "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
            "XYZ",
            "ABC-DD-A-01はABC島のユニットです（XYZ島からは命令できません）",
        ),
        ("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-55", "ABC", "目標のユニットXYZ-DD-X-55は存在しません"),
        ("＜移動＞ABC-F-A-03、QQQ", "ABC", "戦闘機の＜移動＞は所属空母が敗戦したときの退避だけです"),
        # what resolution would refuse from the form alone is refused at once, in resolution's words
        ("＜移動＞ABC-F-A-03、(10,4)", "ABC", "退避先は基地の島名か空母のユニット名で指定してください"),
        ("＜移動＞ABC-DD-A-01、ABC", "ABC", "制海ユニットの移動先は座標(x,y)で指定してください"),
        ("＜移動＞ABC-DD-A-01、(99,3)", "ABC", "移動先(99,3)は地図（12×10）の外です"),
    ],
)
def test_receipt_check_rejects_orders_naming_units_that_do_not_exist(
    line: str, island: str, reason: str
) -> None:
    order = naval.parse_order(line)
    assert isinstance(order, NavalOrder)
    rejection = naval.check_order(state_of("seed002.toml"), order, island)
    assert isinstance(rejection, NavalOrderError)
    assert rejection.reason == reason


@pytest.mark.parametrize(
    "line",
    [
        "＜攻撃＞abc-dd-a-1、XYZ-DD-X-5",
        "＜インターセプト＞ABC-F-A-03、XYZ-F-X-07",
        "＜移動＞ABC-DD-A-01、(6,3)",
    ],
)
def test_receipt_check_accepts_orders_on_existing_units(line: str) -> None:
    order = naval.parse_order(line)
    assert isinstance(order, NavalOrder)
    assert naval.check_order(state_of("seed002.toml"), order, "ABC") is None


def test_adjudicate_gives_the_report_and_the_same_result_as_data() -> None:
    scenario = (FIXTURES / "seed002.toml").read_text(encoding="utf-8")
    start = starting_state(naval.RULESET, scenario, None)
    result = adjudicate(naval.RULESET, start, SEED_ORDERS, randoms_text=EXAMPLE1)
    direct = naval.resolve_period(
        start, parse_orders_file(SEED_ORDERS), naval.RULESET.recorded_source(start, EXAMPLE1)
    )
    assert result.data == naval.resolution_to_dict(direct)
    assert [item["line"] for item in result.data["orders"]] == [
        text for text in result.report.plain.splitlines() if text[:1].isdigit() and "." in text[:3]
    ]


def test_a_lost_carrier_is_reported_with_its_fighters() -> None:
    state = state_of("carrier.toml")
    orders = parse_orders_file("XYZ:＜攻撃＞XYZ-DD-X-02、ABC-CV-A-02")
    after, report = naval.resolve(state, orders, naval.recorded_randoms(state, {"XYZ": [12]}))
    lines = report.plain.splitlines()
    assert "【艦載機】" in lines
    assert any(text.startswith("空母ABC-CV-A-02喪失（1番目）：艦載機3機") for text in lines)
    assert [unit.base for unit in after.units.values() if unit.id.startswith("ABC-F-")] == [None, None, None]
    assert after.evacuations[0].allowed == 1 and after.evacuations[0].period == 1
