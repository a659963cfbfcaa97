"""The naval ruleset as the periods machinery sees it: the order grammar with the island of each order,
the receipt check (units that exist, islands their players own), one order per unit (the first),
the GM's 設定 paths, the status, resolution with the period's random numbers, and the recomputation
of a published report from its key."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from dataclasses import replace
from typing import Any

import pytest

from engine.clock import periods
from engine.report import Report
from engine.rng import SeededDice, SeededSource
from engine.rules.naval import ruleset as naval_ruleset
from engine.rules.naval.ruleset import RULESET, island_owners, verify_report
from engine.rules.naval.state import Island, ScenarioError
from engine.ruleset import AssumesOrders, Author, Order, OrderText, Rejection, may_act
from poster.markup import render_body
from store.records import OrderRecord
from tests.conftest import FIXTURES

ALICE = "アリス◆ywcchpZX7c"
BOB = "ボブ◆aU.BpUgE0M"
KEY = bytes(range(32))


def scenario(**changes: Any) -> dict[str, Any]:
    data = tomllib.loads((FIXTURES / "naval" / "bot_game.toml").read_text("utf-8"))
    data.update(changes)
    return data


@pytest.fixture
def state():
    return RULESET.initial_state(scenario())


def order(text: str, author: str = ALICE, post: int = 5, number: int = 0) -> Order:
    parsed = RULESET.parse_line(text)
    assert isinstance(parsed, OrderText), parsed
    return Order(post, number, author, parsed.player, parsed.command, parsed.canonical)


# --- the grammar ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02",
        "<攻撃>ABC-DD-A-01,XYZ-DD-X-02",
        "＜攻撃＞ABC-DD-A-01，XYZ-DD-X-02",
        "＜攻撃＞ ABC-DD-A-01 XYZ-DD-X-02",
        "＜攻撃＞ＡＢＣ－ＤＤ－Ａ－０１、ｘｙｚ-dd-x-02",
    ],
)
def test_every_form_players_type_is_one_order_of_the_acting_units_island(text: str) -> None:
    parsed = RULESET.parse_line(text)
    assert isinstance(parsed, OrderText)
    assert parsed.canonical == "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02"
    assert parsed.player == "ABC"
    assert (parsed.command.kind, parsed.command.unit, parsed.command.target) == (
        "attack",
        "ABC-DD-A-01",
        "XYZ-DD-X-02",
    )


def test_chat_is_not_an_order_and_a_broken_order_is_rejected_with_the_reason() -> None:
    assert RULESET.parse_line("攻撃するぞー") is None
    assert RULESET.parse_line(">＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02") is None  # a quote: not this poster's order
    rejected = RULESET.parse_line(" ＜移動＞ABC-DD-A-01 ")
    assert isinstance(rejected, Rejection)
    assert rejected.text == "＜移動＞ABC-DD-A-01" and rejected.reason.startswith("移動先がありません")
    bad_id = RULESET.parse_line("＜攻撃＞ABCDDA01、XYZ-DD-X-02")
    assert isinstance(bad_id, Rejection) and "ユニット名「ABCDDA01」の形式が違います" in bad_id.reason


def test_the_canonical_form_reads_back_as_the_same_order() -> None:
    for text in (
        "＜移動＞ａｂｃ－ｄｄ－ａ－１ （４，３）",
        "＜迎撃＞XYZ-F-X-01 ABC-F-A-01",
        "＜移動＞ABC-F-A-01、DEF",
    ):
        first = RULESET.parse_line(text)
        again = RULESET.parse_line(first.canonical)
        assert (again.command.kind, again.command.unit, again.command.target, again.command.to_hex) == (
            first.command.kind,
            first.command.unit,
            first.command.target,
            first.command.to_hex,
        )


# --- one order per unit: the first -------------------------------------------------------------------


def test_every_order_line_keeps_its_own_key_so_the_core_keeps_a_units_first_order(state) -> None:
    first = order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", post=5, number=0)
    second = order("＜移動＞ABC-DD-A-01、(4,3)", post=6, number=1)
    assert RULESET.order_key(first) != RULESET.order_key(second)
    rows = [
        OrderRecord(
            "naval",
            "t",
            o.post,
            o.line,
            o.author,
            o.player,
            1,
            o.canonical,
            o.canonical,
            RULESET.order_key(o),
            "accepted",
        )
        for o in (first, second)
    ]
    assert len(periods.effective_orders(rows)) == 2  # the machinery drops neither
    _, result = RULESET.resolve(state, [first, second], SeededSource(KEY))
    text = result.plain
    assert ">>5 1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02 → [ABC]の乱数A" in text
    assert (
        ">>6 2.ABC:＜移動＞ABC-DD-A-01、(4,3) → 無効：ABC-DD-A-01への命令は1ピリオド1回まで（先行入力優先：1番目の命令を実行済み）"
        in text
    )


# --- the receipt check ---------------------------------------------------------------------------------


def test_check_refuses_units_that_do_not_exist(state) -> None:
    assert (
        RULESET.check(state, order("＜攻撃＞ABC-DD-A-09、XYZ-DD-X-02")) == "ユニットABC-DD-A-09は存在しません"
    )
    assert (
        RULESET.check(state, order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-77"))
        == "目標のユニットXYZ-DD-X-77は存在しません"
    )
    assert (
        RULESET.check(state, order("＜攻撃＞QQQ-DD-A-01、XYZ-DD-X-02")) == "ユニットQQQ-DD-A-01は存在しません"
    )
    assert "所属空母が敗戦したときの退避だけです" in RULESET.check(  # a fighter still on its carrier
        state, order("＜移動＞ABC-F-A-01、XYZ-DD-X-01")
    )
    assert RULESET.check(state, order("＜攻撃＞ABC-DD-A-1、XYZ-DD-X-2")) is None  # numbers read as numbers


def test_check_refuses_orders_for_another_players_island(state) -> None:
    assert RULESET.check(state, order("＜移動＞ABC-DD-A-01、(4,3)")) is None
    refused = RULESET.check(state, order("＜移動＞ABC-DD-A-01、(4,3)", author=BOB))
    assert refused == f"{BOB}はABC島のプレイヤーではないため、ABC島のユニットには命令できません"
    assert RULESET.check(state, order("＜移動＞ABC-DD-A-01、(4,3)", author="アリス")) is not None  # no trip
    assert RULESET.check(state, order("＜移動＞XYZ-DD-X-01、(8,4)", author=BOB)) is None
    assert RULESET.check(state, order("＜移動＞XYZ-DD-X-01、(8,4)", author="名無し◆aU.BpUgE0M")) is None


def test_an_island_without_players_takes_orders_from_anyone() -> None:
    islands = scenario()["islands"]
    for island in islands:
        island.pop("players", None)
    state = RULESET.initial_state(scenario(islands=islands))
    assert RULESET.check(state, order("＜移動＞ABC-DD-A-01、(4,3)", author="通りすがり")) is None
    assert RULESET.players(state) is None


@pytest.mark.parametrize(
    ("players", "author", "allowed"),
    [
        ([], "誰でも", True),
        (["アリス◆TRIP"], "アリス◆TRIP", True),
        (["アリス◆TRIP"], "改名◆TRIP", True),  # the trip proves who it is
        (["アリス◆TRIP"], "アリス◆OTHER", False),
        (["アリス◆TRIP"], "アリス", False),
        (["◆TRIP"], "誰か◆TRIP", True),
        (["アリス"], "アリス", True),  # a player listed by name alone is known by the name
        (["アリス"], "アリス◆ANY", True),
        (["アリス"], "ボブ", False),
        (["アリス◆A", "ボブ◆B"], "ボブ◆B", True),
    ],
)
def test_who_may_order_an_islands_units(players: list[str], author: str, allowed: bool) -> None:
    assert may_act(Author.of(author), island_owners(Island("ABC", (0, 0), [], players))) is allowed


def test_resolve_refuses_an_order_whose_author_does_not_own_the_island(state) -> None:
    foreign = order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", author=BOB, post=7)
    new, result = RULESET.resolve(state, [foreign], SeededSource(KEY))
    assert (
        f">>7 1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02 → 無効：{BOB}はABC島のプレイヤーではない" in result.plain
    )
    assert "XYZ-DD-X-02" in new.units


# --- players, missing orders, scenario players -----------------------------------------------------------


def test_players_are_the_islands_with_players_and_units_without_orders_hold(state) -> None:
    assert RULESET.players(state) == ["ABC", "XYZ"]
    assert not isinstance(RULESET, AssumesOrders)  # no order is assumed for an island that sent none
    assert "プレイヤーが決まっていない島のユニットには誰でも命令できます" in RULESET.HELP
    assert "命令のなかったユニットは何もせず、その場に留まります" in RULESET.HELP
    assert RULESET.HELP.startswith("【海戦ルール（TRPG戦闘処理）】")


def test_scenario_players_must_be_a_list_of_names() -> None:
    islands = scenario()["islands"]
    islands[0]["players"] = "アリス"
    with pytest.raises(ScenarioError, match="島 ABC の players はプレイヤー"):
        RULESET.initial_state(scenario(islands=islands))
    islands[0]["players"] = ["アリス", 3]
    with pytest.raises(ScenarioError, match="島 ABC の players"):
        RULESET.initial_state(scenario(islands=islands))


def test_the_state_with_its_players_survives_json(state) -> None:
    data = json.loads(json.dumps(RULESET.state_to_dict(state), ensure_ascii=False))
    again = RULESET.state_from_dict(data)
    assert again.islands["ABC"].players == [ALICE] and again.islands["DEF"].players == []
    assert RULESET.state_to_dict(again) == RULESET.state_to_dict(state)
    del data["islands"][0]["players"]  # a state stored before islands had players
    assert RULESET.state_from_dict(data).islands["ABC"].players == []


# --- 設定 ------------------------------------------------------------------------------------------------


def test_the_gm_sets_a_ships_hex_and_strengths_without_touching_the_old_state(state) -> None:
    moved = RULESET.set_value(state, "units.ABC-DD-A-01.hex", "（５，６）")
    assert moved.units["ABC-DD-A-01"].hex == (5, 6) and state.units["ABC-DD-A-01"].hex == (3, 3)
    assert RULESET.set_value(state, "units.abc-dd-a-1.hex", "5,6").units["ABC-DD-A-01"].hex == (5, 6)
    stronger = RULESET.set_value(state, "units.XYZ-F-X-01.anti_air", "12")
    assert stronger.units["XYZ-F-X-01"].anti_air == 12 and state.units["XYZ-F-X-01"].anti_air == 7
    assert RULESET.set_value(state, "units.ABC-DD-A-01.anti_ship", "0").units["ABC-DD-A-01"].anti_ship == 0


def test_the_gm_sets_who_may_evacuate_to_an_island(state) -> None:
    both = RULESET.set_value(state, "islands.GHI.permits_evacuation", "ABC、xyz")
    assert both.islands["GHI"].permits_evacuation == ["ABC", "XYZ"]
    assert state.islands["GHI"].permits_evacuation == []
    assert (
        RULESET.set_value(state, "islands.DEF.permits_evacuation", "なし").islands["DEF"].permits_evacuation
        == []
    )


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        ("units.ABC-DD-A-09.hex", "5,6", "ユニットABC-DD-A-09は存在しません"),
        ("units.ABC-DD-A-01.hex", "99,1", "地図（16×10）の外です"),
        ("units.ABC-DD-A-01.hex", "どこか", "座標「どこか」が読めません"),
        ("units.ABC-F-A-01.hex", "5,6", "戦闘機なので位置は配属基地で決まります"),
        ("units.ABC-DD-A-01.anti_air", "-1", "0以上の整数"),
        ("units.ABC-DD-A-01.base", "ABC", "ユニットの base は設定できません"),
        ("islands.ZZZ.permits_evacuation", "ABC", "島ZZZはありません"),
        ("islands.DEF.permits_evacuation", "DEF,QQQ", "DEF、QQQはDEF島以外の島ではありません"),
        ("islands.DEF.home", "1,1", "島の home は設定できません"),
        ("period", "3", "period は設定できません（設定できるもの: units.<ユニット名>.hex"),
    ],
)
def test_what_the_gm_may_not_set_is_refused_with_the_reason(
    state, path: str, value: str, reason: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        RULESET.set_value(state, path, value)


def test_a_transport_keeps_no_strength() -> None:
    data = scenario()
    data["kinds"]["LST"] = "transport"
    data["units"].append({"id": "XYZ-LST-X-01", "hex": [3, 3]})
    state = RULESET.initial_state(data)
    with pytest.raises(ValueError, match="輸送ユニットなので戦力は0です"):
        RULESET.set_value(state, "units.XYZ-LST-X-01.anti_ship", "3")


def test_the_settings_document_every_path_set_value_takes() -> None:
    paths = [setting.path for setting in RULESET.settings]
    assert paths == [
        "units.<ユニット名>.hex",
        "units.<ユニット名>.anti_air",
        "units.<ユニット名>.anti_ship",
        "islands.<島名>.permits_evacuation",
    ]


# --- status ------------------------------------------------------------------------------------------------


def test_status_lists_the_units_of_each_island_with_its_players(state) -> None:
    text = render_body(RULESET.status(state))
    assert text.startswith("【海戦 ピリオド1のユニット】\n【ABC島（アリス◆ywcchpZX7c）】\n")
    assert "ABC-DD-A-01　制海ユニット　(3,3)　対空4/対艦10" in text
    assert "ABC-F-A-01　戦闘機　基地ABC-CV-A-01　対空6/対艦4" in text
    assert "【DEF島（誰でも命令可）】\nユニットなし" in text
    sunk = order("＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01", author=BOB)
    flee = order("＜移動＞ABC-CV-A-01、(8,4)", post=6)
    after, _ = RULESET.resolve(state, [sunk, flee], SeededSource(KEY))
    text = render_body(RULESET.status(after))
    assert text.startswith("【海戦 ピリオド2のユニット】")
    assert "ABC-F-A-02　戦闘機　取り残し(7,4)" in text
    assert (
        "退避待ち: 空母ABC-CV-A-01の艦載機ABC-F-A-01、ABC-F-A-02、ABC-F-A-03、ABC-F-A-04（ピリオド2に2機まで）"
        in text
    )


# --- resolution and its recomputation ----------------------------------------------------------------------


def played(state) -> tuple[Report, list[str]]:
    orders = [
        order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", post=3),
        order("＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01", author=BOB, post=4),
    ]
    _, result = RULESET.resolve(state, orders, SeededSource(KEY))
    return result, render_body(result).split("\n")


def test_resolve_publishes_every_islands_numbers_from_the_naval_streams(state) -> None:
    result, lines = played(state)
    assert lines[:4] == [">>3 >>4", "【海戦処理 第1ピリオド】", "【乱数】", "島　A　B　C　D　E　F"]
    for island, row in zip(("ABC", "XYZ", "DEF", "GHI"), lines[4:8], strict=True):
        dice = SeededDice(KEY, f"naval/{island}")
        assert row.split("　") == [island, *(str(dice.roll(100)) for _ in range(6))]
    assert result.reply_to == (3, 4)


def test_a_published_report_recomputes_clean(state) -> None:
    _, lines = played(state)
    assert verify_report(lines, KEY) == []
    assert RULESET.verify_period(KEY, RULESET.read_period(lines)) == []
    assert verify_report(lines, bytes(32)) != []  # another key gives other numbers


def test_a_changed_number_in_the_table_or_in_a_battle_is_caught(state) -> None:
    _, lines = played(state)
    row = lines.index(next(text for text in lines if text.startswith("DEF　")))
    cells = lines[row].split("　")
    forged = [*cells[:3], str(int(cells[3]) % 100 + 1), *cells[4:]]
    problems = verify_report([*lines[:row], "　".join(forged), *lines[row + 1 :]], KEY)
    assert problems == [f"[DEF]の乱数Cが再計算と一致しません（投稿: {forged[3]} ／ 再計算: {cells[3]}）"]

    battle = next(i for i, text in enumerate(lines) if "[ABC]の乱数A" in text)
    value = SeededDice(KEY, "naval/ABC").roll(100)
    changed = lines[battle].replace(f"乱数{value}", f"乱数{value % 100 + 1}", 1)
    problems = verify_report([*lines[:battle], changed, *lines[battle + 1 :]], KEY)
    assert problems == [
        f"1番目の命令の[ABC]の乱数Aが再計算と一致しません（投稿: {value % 100 + 1} ／ 再計算: {value}）"
    ]


def test_a_letter_out_of_turn_or_a_verdict_against_the_number_is_caught(state) -> None:
    _, lines = played(state)
    battle = next(i for i, text in enumerate(lines) if "[ABC]の乱数A" in text)
    out_of_turn = lines[battle].replace("[ABC]の乱数A", "[ABC]の乱数B")
    problems = verify_report([*lines[:battle], out_of_turn, *lines[battle + 1 :]], KEY)
    assert "1番目の命令に[ABC]の乱数Bが使われています（順番では乱数A）" in problems
    text = lines[battle]
    flipped = (
        text.replace("ABC-DD-A-01勝利（XYZ-DD-X-02消滅）", "ABC-DD-A-01敗戦・消滅（XYZ-DD-X-02勝利）")
        if "ABC-DD-A-01勝利" in text
        else text.replace("ABC-DD-A-01敗戦・消滅（XYZ-DD-X-02勝利）", "ABC-DD-A-01勝利（XYZ-DD-X-02消滅）")
    )
    assert flipped != text
    problems = verify_report([*lines[:battle], flipped, *lines[battle + 1 :]], KEY)
    assert len(problems) == 1 and problems[0].startswith("1番目の命令の勝敗が交戦力10対5と乱数")


def test_a_report_without_its_table_cannot_be_checked(state) -> None:
    _, lines = played(state)
    assert verify_report([text for text in lines if text != "【乱数】"], KEY) == [
        "乱数の表（【乱数】）が見つかりません"
    ]
    short = [text if not text.startswith("XYZ　") else text.rsplit("　", 1)[0] for text in lines]
    assert "[XYZ]の乱数が5個です（6個のはず）" in verify_report(short, KEY)


def test_the_ruleset_is_registered_for_the_bot() -> None:
    from engine.rules import REGISTRY

    assert REGISTRY.get("naval") is naval_ruleset.RULESET
    assert (RULESET.ID, RULESET.immediate) == ("naval", False)


def test_an_order_without_a_post_has_no_anchor(state) -> None:
    posted = order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", post=9)
    _, result = RULESET.resolve(state, [replace(posted, post=0)], SeededSource(KEY))
    battle = next(text for text in result.plain.split("\n") if "＜攻撃＞ABC-DD-A-01" in text)
    assert battle.startswith("1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02 → [ABC]の乱数A")  # no anchor for post 0


def test_the_structured_result_is_recomputed_without_any_text(state) -> None:
    orders = [
        order("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", post=3),
        order("＜攻撃＞XYZ-DD-X-02、ABC-DD-A-01", post=4),
    ]
    _, outcome = RULESET.resolve(state, orders, SeededSource(KEY))
    result = outcome.meta["result"]
    assert RULESET.verify_period(KEY, result) == []
    assert RULESET.read_period(outcome.plain.split("\n"))["randoms"] == result["randoms"]
    forged = copy.deepcopy(result)
    island, values = next(iter(forged["randoms"].items()))
    values["A"] = values["A"] % 100 + 1
    assert any(f"[{island}]の乱数A" in problem for problem in RULESET.verify_period(KEY, forged))
    flipped = copy.deepcopy(result)
    battle = next(item for item in flipped["orders"] if item["random"] is not None)
    battle["result"] = "敗戦" if battle["result"] == "勝利" else "勝利"
    assert any("の判定と一致しません" in problem for problem in RULESET.verify_period(KEY, flipped))
