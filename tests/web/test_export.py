"""`threadgm export`: a finished battle royale and a finished naval war, in the markup of each wiki,
against golden files in tests/fixtures/web/ (the games are the same every run: time and secrets are
fixed). Regenerate them only on purpose, then read the diff before keeping it:

    THREADGM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/web/test_export.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.web import web_commands
from engine.rules import REGISTRY
from scheduler import load_config
from tests.bot_harness import BOT_NAME
from tests.conftest import FIXTURES
from tests.web import played

GOLDEN = FIXTURES / "web"
REGENERATE = os.environ.get("THREADGM_REGEN_GOLDEN") == "1"
COMMANDS = {command.name: command for command in web_commands(REGISTRY, load_config)}


def config_file(game: played.Played, tmp_path: Path) -> Path:
    """The configuration the bot of `game` ran with, as a GM would have written it."""
    c = game.config
    lines = ["[bot]", f'name = "{BOT_NAME}"', f'database = "{game.database}"', "", "[[game]]"]
    lines += [f'id = "{c.id}"', f'rules = "{c.rules}"', f'thread = "{c.thread}"', f'seed = "{c.seed}"']
    lines += [f"dice = {str(c.dice).lower()}", f'scenario = "{c.scenario}"', "", "[game.schedule]"]
    lines += [f"{key} = {value!r}".replace("'", '"') for key, value in c.schedule.items()]
    path = tmp_path / "threadgm.toml"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def exported(game: played.Played, tmp_path: Path, dialect: str) -> str:
    result = CliRunner().invoke(
        COMMANDS["export"],
        [game.config.rules, "--config", str(config_file(game, tmp_path)), "--format", dialect],
    )
    assert result.exit_code == 0, result.output
    # the board listens on a port of its own each run: the golden names a fixed one
    return re.sub(r"http://127\.0\.0\.1:\d+/", "http://127.0.0.1:8380/", result.output)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs (see the module docstring)"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory):
    naval = played.naval(tmp_path_factory.mktemp("naval"))
    br = played.battle_royale(tmp_path_factory.mktemp("br"))
    assert naval.finished() and br.finished()
    yield naval, br
    naval.close()
    br.close()


@pytest.mark.parametrize("dialect", ["atwiki", "pukiwiki", "markdown"])
def test_a_finished_naval_war_exports_every_period(finished, tmp_path: Path, dialect: str) -> None:
    naval, _ = finished
    text = exported(naval, tmp_path, dialect)
    check_golden(f"export_naval.{dialect}.txt", text)
    posted = [p.body for p in naval.board.posts() if p.body.startswith("【ピリオド")]
    assert len(posted) == 2 and text.count("ピリオド1") >= 2 and "ピリオド2" in text
    # the orders of every period, by whom, and each report's key: the history as the thread had it
    assert "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01" in text and "＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02" in text
    for period in (1, 2):
        assert naval.bot.setup.period_key(period).hex() in text


@pytest.mark.parametrize("dialect", ["atwiki", "pukiwiki", "markdown"])
def test_a_finished_battle_royale_exports_every_period(finished, tmp_path: Path, dialect: str) -> None:
    _, br = finished
    text = exported(br, tmp_path, dialect)
    check_golden(f"export_battle_royale.{dialect}.txt", text)
    periods = br.store.last_resolution("br").period
    heading = {"atwiki": "**ピリオド{}", "pukiwiki": "**ピリオド{}", "markdown": "### ピリオド{}"}[dialect]
    assert [n for n in range(1, periods + 2) if f"\n{heading.format(n)}\n" in text] == list(
        range(1, periods + 1)
    )
    assert "優勝" in text


def test_export_refuses_what_it_cannot_read(finished, tmp_path: Path) -> None:
    naval, _ = finished
    config = config_file(naval, tmp_path)
    wrong = CliRunner().invoke(COMMANDS["export"], ["battle-royale", "--config", str(config)])
    assert (
        wrong.exit_code != 0
        and "に battle-royale のゲームはありません（あるのは: naval（naval））" in wrong.output
    )
    missing = config.read_text("utf-8").replace(str(naval.database), str(tmp_path / "none.sqlite"))
    config.write_text(missing, "utf-8")
    gone = CliRunner().invoke(COMMANDS["export"], ["naval", "--config", str(config)])
    assert gone.exit_code != 0 and "ボットのデータベースがありません" in gone.output
    assert not (tmp_path / "none.sqlite").exists()  # looking created nothing
