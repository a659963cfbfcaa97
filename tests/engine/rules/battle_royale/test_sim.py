"""Automatic play and `threadgm simulate battle-royale`: deterministic per seed, figures that add up."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engine.rng import SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.sim import format_result, run_key, simulate
from scheduler import main
from tests.conftest import FIXTURES

SMALL = {"prefectures": [{"name": n} for n in ("北海道", "青森", "岩手", "宮城", "秋田", "山形")]}


def test_simulation_is_deterministic_per_seed_and_adds_up() -> None:
    first = simulate(SMALL, 30, "abc")
    again = simulate(SMALL, 30, "abc")
    other = simulate(SMALL, 30, "abd")
    assert first.to_dict() == again.to_dict() != other.to_dict()
    data = first.to_dict()
    assert sum(first.wins.values()) == 30 and abs(sum(data["win_share"].values()) - 1) < 1e-9
    assert data["endings"] == {"winner": 30}
    assert data["battles"]["min"] <= data["battles"]["mean"] <= data["battles"]["max"]
    assert data["events"]["encounters"] >= sum(first.battles)


def test_simulation_runs_use_the_documented_keys() -> None:
    result = simulate(SMALL, 2, "S")
    state = br.play_game(br.initial_state(SMALL), SeededSource(run_key("S", 1)))
    assert run_key("S", 1) == __import__("hashlib").sha256(b"simulate|S|1").digest()
    assert result.battles[1] == state.battles and state.ending is not None
    assert result.wins[state.ending.winners[0]] >= 1


def test_simulation_counts_special_rule_events() -> None:
    mastermind = simulate({**SMALL, "mastermind": {"enabled": True}}, 20, "m").to_dict()
    assert mastermind["events"]["mastermind_lives_lost"] > 0 and mastermind["events"]["final_battles"] > 0
    tag = simulate({**SMALL, "tag_match": {"enabled": True}}, 20, "t").to_dict()
    assert tag["endings"] == {"winner": 20} and sum(tag["win_share"].values()) > 1  # teams share a win
    text = format_result(simulate(SMALL, 5, "x"))
    assert text.startswith("battle-royale: 5回シミュレーション（seed=x）") and "優勝率（" in text


def test_cli_simulate_battle_royale_json(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "battle-royale", "--runs", "3", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["runs"] == 3 and len(data["win_share"]) == 47 and data["endings"] == {"winner": 3}
    text = runner.invoke(main, ["simulate", "battle-royale", "--runs", "2", "--seed", "7"])
    assert text.exit_code == 0 and "1ゲームの戦闘数" in text.output


def test_cli_simulate_reads_a_scenario_and_reports_its_mistakes(tmp_path: Path) -> None:
    runner = CliRunner()
    scenario = FIXTURES / "battle_royale" / "scenarios" / "tohoku_revival.toml"
    ok = runner.invoke(
        main, ["simulate", "battle-royale", "--scenario", str(scenario), "--runs", "4", "--json"]
    )
    assert ok.exit_code == 0, ok.output
    assert set(json.loads(ok.output)["win_share"]) == {
        "北海道",
        "青森",
        "岩手",
        "宮城",
        "秋田",
        "山形",
        "福島",
        "茨城",
        "栃木",
    }
    broken = FIXTURES / "battle_royale" / "scenarios" / "broken.toml"
    bad = runner.invoke(main, ["simulate", "battle-royale", "--scenario", str(broken), "--runs", "1"])
    assert bad.exit_code != 0 and "シナリオに誤りがあります" in bad.output
    sjis = tmp_path / "sjis.toml"
    sjis.write_bytes('[[prefectures]]\nname = "東京"\n[[prefectures]]\nname = "大阪"\n'.encode("cp932"))
    ok2 = runner.invoke(main, ["simulate", "battle-royale", "--scenario", str(sjis), "--runs", "2", "--json"])
    assert ok2.exit_code == 0 and set(json.loads(ok2.output)["win_share"]) == {"東京", "大阪"}
