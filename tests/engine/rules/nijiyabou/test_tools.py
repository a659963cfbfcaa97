"""The offline tools on にじ野望: `threadgm adjudicate` previews a season and saves the state for the
next, `threadgm simulate` plays whole games with random lords (and they end), `threadgm help` prints
HELP, and the bench's season has every area of 47 countries ordering (its time is `python -m bench nijiyabou`'s)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bench import bench_nijiyabou as bench
from engine.rules.nijiyabou import sim
from engine.rules.nijiyabou.ruleset import RULESET
from engine.rules.nijiyabou.scenario import default_text
from scheduler import main


def test_adjudicate_previews_a_season_and_carries_the_state(tmp_path: Path) -> None:
    scenario = tmp_path / "niji.toml"
    scenario.write_text(default_text(), "utf-8")
    orders = tmp_path / "ORDERS.txt"
    orders.write_text("アリス◆A: 参加 月ノ美兎\nアリス◆A: 東京：徴兵 騎兵500\n神奈川：配信\n", "utf-8")
    saved = tmp_path / "state.json"
    args = ["adjudicate", "nijiyabou", "--scenario", str(scenario), "--orders", str(orders), "--seed", "7"]
    result = CliRunner().invoke(main, [*args, "--save-state", str(saved), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["season"] == "1615年春" and "niji/haishin/神奈川" in data["rolls"]
    assert data["state"]["livers"]["月ノ美兎"]["player"] == "アリス◆A"
    orders.write_text("アリス◆A: 東京：内政\n", "utf-8")
    again = CliRunner().invoke(
        main, ["adjudicate", "nijiyabou", "--state", str(saved), "--orders", str(orders)]
    )
    assert again.exit_code == 0, again.output
    assert again.output.startswith("【にじ野望 1615年夏の判定】") and "東京 内政：国力+3 → 7" in again.output


def test_simulated_games_end_and_say_they_cannot_be_verified(monkeypatch) -> None:
    """One whole game by random lords ends in unification; the command line reports it (the same
    game's figures, not a second game: a whole game is the slow part)."""
    game = sim.play({}, "simulate|test|0")
    assert game["finished"] and 0 < game["seasons"] < sim.SEASON_CAP
    monkeypatch.setattr(sim, "play", lambda scenario, seed: game)
    figures = json.loads(sim.simulate({}, 1, "test", as_json=True))
    assert figures["finished"] == 1 and figures["verifiable"] is False
    text = CliRunner().invoke(main, ["simulate", "nijiyabou", "--runs", "1", "--seed", "test"]).output
    assert f"天下統一で終わった回: 1／1、平均 {game['seasons']}.0季節" in text and "検証できません" in text


def test_help_names_every_rule_and_default() -> None:
    text = CliRunner().invoke(main, ["help", "nijiyabou"]).output
    words = [
        "外交",
        "内政",
        "徴兵",
        "移動",
        "出陣",
        "配信",
        "救援",
        "共同攻撃",
        "先攻",
        "攻撃順",
        "攻撃対象",
        "占領",
    ]
    words += ["降伏", "引き抜き", "寝返り", "下克上", "処断", "委任", "雪地", "隣接", "参加", "編成"]
    words += [
        "国力5・足軽5000",
        "既定は全員50",
        "×0.2",
        "最大5回戦",
        "1D6",
        "1615年春",
        "北海道ー青森",
        "鹿児島ー沖縄",
    ]
    assert [word for word in words if word not in text] == []


def test_the_bench_season_has_every_area_ordering() -> None:
    state = RULESET.initial_state({})
    orders = bench.full_orders(state)
    assert len(orders) == 3 * len(state.areas) == 141  # a command and both designations, every area
