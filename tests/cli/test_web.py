"""`threadgm picture GAME`: the game page's picture saved as SVG — from a scenario, from a state saved
by adjudicate, or from the bot's store after any period — and the same picture the page shows."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from cli.web import web_commands
from engine import svg
from engine.rules import REGISTRY
from scheduler import load_config
from tests.conftest import FIXTURES
from tests.web import played
from tests.web.test_export import config_file

PICTURE = next(command for command in web_commands(REGISTRY, load_config) if command.name == "picture")
G = f"{{{svg.SVG_NS}}}g"


def picture(*args: str):
    return CliRunner().invoke(PICTURE, list(args))


def units(text: str) -> dict[str, list[str]]:
    root = ET.fromstring(text)
    return {g.get("data-hex"): g.get("data-units").split() for g in root.iter(G) if g.get("class") == "units"}


def test_a_scenario_s_picture(tmp_path: Path) -> None:
    drawn = picture("naval", "--scenario", str(FIXTURES / "naval" / "duel.toml"))
    assert drawn.exit_code == 0, drawn.output
    assert units(drawn.output)["3,3"] == ["ABC-DD-A-01", "XYZ-DD-X-01", "XYZ-LST-X-01"]


def test_a_saved_state_s_picture(tmp_path: Path) -> None:
    ruleset = REGISTRY.get("battle-royale")
    state = ruleset.initial_state(ruleset.read_scenario(ruleset.template()))
    state.status["東京"] = "dead"
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(ruleset.state_to_dict(state), ensure_ascii=False), "utf-8")
    drawn = picture("battle-royale", "--state", str(saved))
    assert drawn.exit_code == 0, drawn.output
    assert 'data-name="東京" data-status="fallen"' in drawn.output


@pytest.fixture
def war(tmp_path: Path):
    game = played.naval(tmp_path / "game")
    yield game, config_file(game, tmp_path)
    game.close()


def test_the_bot_s_state_after_any_period_and_the_page_s_own(war) -> None:
    game, config = war
    last = picture("naval", "--config", str(config))
    first = picture("naval", "--config", str(config), "--period", "1")
    start = picture("naval", "--config", str(config), "--period", "0")
    assert last.exit_code == first.exit_code == start.exit_code == 0, (last.output, first.output)
    left = [unit for ids in units(last.output).values() for unit in ids]
    assert "XYZ-DD-X-02" in str(units(first.output)) and left == ["ABC-DD-A-01", "ABC-DD-A-02"]
    assert "XYZ-DD-X-01" in str(units(start.output)) and "XYZ-DD-X-01" not in str(units(first.output))
    assert 'class="battle"' in first.output  # period 1's fight, from its result folded again
    page = game.serve()
    assert requests.get(f"{page.url}/games/naval/picture.svg", timeout=10).text == last.output.rstrip("\n")
    too_far = picture("naval", "--config", str(config), "--period", "9")
    assert too_far.exit_code != 0 and "ピリオド9はまだ処理されていません" in too_far.output


def test_what_it_cannot_draw_is_said(tmp_path: Path) -> None:
    both = picture(
        "naval",
        "--scenario",
        str(FIXTURES / "naval" / "duel.toml"),
        "--state",
        str(FIXTURES / "naval" / "duel.toml"),
    )
    assert both.exit_code != 0 and "どれか一つ" in both.output
    broken = tmp_path / "state.json"
    broken.write_text("{}", "utf-8")
    unreadable = picture("battle-royale", "--state", str(broken))
    assert unreadable.exit_code != 0 and "状態データ" in unreadable.output
    scenario = tmp_path / "guess.toml"
    scenario.write_text("rounds = 1\n", "utf-8")
    none = picture("guess", "--scenario", str(scenario))
    assert none.exit_code != 0 and "数当て には図がありません" in none.output


def test_a_configuration_without_a_game_of_those_rules_says_what_it_has(tmp_path: Path) -> None:
    config = tmp_path / "threadgm.toml"
    config.write_text(
        '[bot]\ndatabase = "x.sqlite"\n[[game]]\nid = "table"\nrules = "dice"\n'
        'thread = "https://egg.5ch.net/test/read.cgi/game/1796000000/"\nopen_table = true\n',
        "utf-8",
    )
    result = picture("naval", "--config", str(config))
    assert result.exit_code == 1
    assert f"{config} に naval のゲームはありません（あるのは: table（dice））" in result.output
