"""`threadgm adjudicate naval`: seed 002's two worked examples through the command line, as golden tests,
and the GM preview's inputs and errors."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner, Result

from engine.rng import SeededSource
from scheduler import main
from tests.conftest import shared_path

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "naval"
SCENARIO = FIXTURES / "seed002.toml"
ORDERS = FIXTURES / "seed002_orders.txt"

# The page's tables: (random number used or None, result of the order, text the result must show).
EXAMPLE1 = [
    (("ABC", "A"), "勝利", "ABC-DD-A-01勝利"),
    (("ABC", "B"), "勝利", "ABC-DD-A-02勝利"),
    (None, "無効", "＜インターセプト＞により無効"),
    (("ABC", "C"), "勝利", ""),
    (("XYZ", "A"), "勝利", ""),
    (("ABC", "D"), "勝利", ""),
    (("XYZ", "B"), "敗戦", ""),
]
EXAMPLE2 = [
    (("ABC", "A"), "敗戦", "ABC-DD-A-01敗戦・消滅"),
    (("ABC", "B"), "勝利", "ABC-DD-A-02勝利"),
    (None, "無効", "攻撃対象が存在せず無効"),
    (None, "無効", "迎撃対象が存在せず無効"),
    (("XYZ", "A"), "勝利", ""),
    (("ABC", "C"), "勝利", ""),
    (("XYZ", "B"), "敗戦", ""),
]


def adjudicate(*args: str) -> Result:
    return CliRunner().invoke(main, ["adjudicate", "naval", *args])


def golden(randoms: str, fmt: str) -> Result:
    result = adjudicate(
        "--scenario",
        str(SCENARIO),
        "--orders",
        str(ORDERS),
        "--randoms",
        str(FIXTURES / randoms),
        "--format",
        fmt,
    )
    assert result.exit_code == 0, result.output
    return result


def check_json(output: str, table: list[tuple[tuple[str, str] | None, str, str]]) -> dict:
    data = json.loads(output)
    assert [item["index"] for item in data["orders"]] == list(range(1, 8))
    for item, (random, outcome, shown) in zip(data["orders"], table, strict=True):
        got = None if item["random"] is None else (item["random"]["island"], item["random"]["letter"])
        assert got == random, item["line"]
        assert item["result"] == outcome, item["line"]
        assert shown in item["line"]
        assert set(item) >= {"index", "island", "kind", "random", "result", "winner", "loser", "reason"}
    return data


def test_the_orders_fixture_is_the_page_verbatim() -> None:
    page = shared_path("seeds", "002_abf3c8dc86d74056.txt").read_text(encoding="utf-8")
    orders = ORDERS.read_text(encoding="utf-8")
    assert len(orders.splitlines()) == 7
    assert orders in page


def test_example1_json() -> None:
    data = check_json(golden("seed002_example1_randoms.txt", "json").output, EXAMPLE1)
    assert data["randoms"]["ABC"] == {"A": 50, "B": 60, "C": 80, "D": 51, "E": 33, "F": 90}
    assert data["orders"][0]["winner"] == "ABC-DD-A-01" and data["orders"][0]["loser"] == "XYZ-DD-X-05"
    assert data["orders"][2]["kind"] == "attack" and data["orders"][3]["kind"] == "intercept"
    assert data["orders"][3]["winner"] == "ABC-F-A-03" and data["orders"][3]["loser"] == "XYZ-F-X-07"


def test_example2_json() -> None:
    data = check_json(golden("seed002_example2_randoms.txt", "json").output, EXAMPLE2)
    assert data["orders"][0]["winner"] == "XYZ-DD-X-05" and data["orders"][0]["loser"] == "ABC-DD-A-01"
    assert data["orders"][5]["random"] == {"island": "ABC", "letter": "C", "value": 51}


def test_example1_text_shows_the_page_table() -> None:
    lines = golden("seed002_example1_randoms.txt", "text").output.splitlines()
    assert lines[:5] == [
        "【海戦処理 第1ピリオド】",
        "【乱数】",
        "島 A B C D E F",
        "ABC 50 60 80 51 33 90",
        "XYZ 45 15 70 22 64 38",
    ]
    labels = [
        "[ABC]の乱数A",
        "[ABC]の乱数B",
        "＜インターセプト＞により無効",
        "[ABC]の乱数C",
        "[XYZ]の乱数A",
        "[ABC]の乱数D",
        "[XYZ]の乱数B",
    ]
    page = ORDERS.read_text(encoding="utf-8").splitlines()
    body = lines[6:13]
    for text, order, label in zip(body, page, labels, strict=True):
        assert text.startswith(f"{order} → {label}"), text
    assert body[0].endswith("→ ABC-DD-A-01勝利（XYZ-DD-X-05消滅）")


def test_example2_text_shows_the_page_table() -> None:
    lines = golden("seed002_example2_randoms.txt", "text").output.splitlines()
    labels = [
        "[ABC]の乱数A",
        "[ABC]の乱数B",
        "攻撃対象が存在せず無効",
        "迎撃対象が存在せず無効",
        "[XYZ]の乱数A",
        "[ABC]の乱数C",
        "[XYZ]の乱数B",
    ]
    page = ORDERS.read_text(encoding="utf-8").splitlines()
    for text, order, label in zip(lines[6:13], page, labels, strict=True):
        assert text.startswith(f"{order} → {label}"), text
    assert lines[6].endswith("→ ABC-DD-A-01敗戦・消滅（XYZ-DD-X-05勝利）")


def test_seed_derives_the_key_and_is_reproducible() -> None:
    first = adjudicate(
        "--scenario", str(SCENARIO), "--orders", str(ORDERS), "--seed", "7", "--format", "json"
    )
    second = adjudicate(
        "--scenario", str(SCENARIO), "--orders", str(ORDERS), "--seed", "7", "--format", "json"
    )
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    dice = SeededSource(hashlib.sha256(b"adjudicate|7").digest()).stream("naval/ABC")
    expected = [dice.roll(100) for _ in range(6)]
    assert list(json.loads(first.output)["randoms"]["ABC"].values()) == expected
    other = adjudicate(
        "--scenario", str(SCENARIO), "--orders", str(ORDERS), "--seed", "8", "--format", "json"
    )
    assert json.loads(other.output)["randoms"] != json.loads(first.output)["randoms"]


def test_no_randoms_and_no_seed_means_seed_0() -> None:
    plain = adjudicate("--scenario", str(SCENARIO), "--orders", str(ORDERS))
    zero = adjudicate("--scenario", str(SCENARIO), "--orders", str(ORDERS), "--seed", "0")
    assert plain.exit_code == 0 and plain.output == zero.output


def test_too_few_random_numbers_is_a_clear_error(tmp_path: Path) -> None:
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("ABC: 50 60\nXYZ: 45 15\n", encoding="utf-8")
    result = adjudicate("--scenario", str(SCENARIO), "--orders", str(ORDERS), "--randoms", str(randoms))
    assert result.exit_code == 1
    assert "ABC島の乱数が足りません：乱数Cが必要ですが2個しか与えられていません" in result.output


def test_randoms_and_seed_together_are_refused(tmp_path: Path) -> None:
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("ABC: 50\n", encoding="utf-8")
    result = adjudicate(
        "--scenario", str(SCENARIO), "--orders", str(ORDERS), "--randoms", str(randoms), "--seed", "1"
    )
    assert result.exit_code == 2
    assert "--randoms と --seed はどちらか一方だけ" in result.output


def test_bad_inputs_get_japanese_messages(tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text('[map]\nwidth = 3\nheight = 3\n[kinds]\nDD = "制海"\n', encoding="utf-8")
    result = adjudicate("--scenario", str(scenario), "--orders", str(ORDERS))
    assert result.exit_code == 1
    assert "シナリオに誤りがあります" in result.output and "[[islands]] に島" in result.output
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("ABC: 50 200\n", encoding="utf-8")
    result = adjudicate("--scenario", str(SCENARIO), "--orders", str(ORDERS), "--randoms", str(randoms))
    assert result.exit_code == 1 and "「200」は1～100の整数ではありません" in result.output


def test_orders_in_shift_jis_and_malformed_lines(tmp_path: Path) -> None:
    orders = tmp_path / "ORDERS.txt"
    orders.write_bytes("ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\nABC:＜攻撃＞ABC-DD-A-02\n".encode("cp932"))
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("ABC: 50\n", encoding="utf-8")
    result = adjudicate(
        "--scenario", str(SCENARIO), "--orders", str(orders), "--randoms", str(randoms), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    first, second = json.loads(result.output)["orders"]
    assert first["result"] == "勝利"
    assert (second["result"], second["kind"], second["random"]) == ("無効", None, None)
    assert "「、」で区切って2つ書いてください" in second["reason"]


def test_unknown_ruleset_is_refused() -> None:
    result = CliRunner().invoke(
        main, ["adjudicate", "chess", "--scenario", str(SCENARIO), "--orders", str(ORDERS)]
    )
    assert result.exit_code == 2
    assert "naval" in result.output


def test_a_gm_previews_an_evacuation_across_two_periods(tmp_path: Path) -> None:
    """Period 1 sinks a carrier (its fighters are stranded); period 2, started from the saved state,
    evacuates half of them — the same `resolve` the bot runs, carried by --save-state / --state."""
    first, second, state = tmp_path / "P1.txt", tmp_path / "P2.txt", tmp_path / "state.json"
    first.write_text("XYZ:＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01\n", encoding="utf-8")
    second.write_text(
        "ABC:＜移動＞ABC-F-A-01、ABC-CV-A-02\nABC:＜移動＞ABC-F-A-02、DEF\nABC:＜移動＞ABC-F-A-03、ABC-CV-A-02\n",
        encoding="utf-8",
    )
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("XYZ: 12\n", encoding="utf-8")
    scenario = str(FIXTURES / "evacuation.toml")
    sunk = adjudicate(
        "--scenario", scenario, "--orders", str(first), "--randoms", str(randoms), "--save-state", str(state)
    )
    assert sunk.exit_code == 0, sunk.output
    assert "空母ABC-CV-A-01喪失" in sunk.output and json.loads(state.read_text("utf-8"))["evacuations"]
    evacuated = adjudicate("--state", str(state), "--orders", str(second), "--format", "json")
    assert evacuated.exit_code == 0, evacuated.output
    data = json.loads(evacuated.output)
    assert [item["result"] for item in data["orders"]] == ["移動", "移動", "無効"]
    assert "半数の2機まで" in data["orders"][2]["reason"]
    bases = {unit["id"]: unit["base"] for unit in data["state"]["units"]}
    assert bases["ABC-F-A-01"] == "ABC-CV-A-02" and bases["ABC-F-A-02"] == "DEF"
    assert "ABC-F-A-03" not in bases  # not evacuated: lost at the end of the period
