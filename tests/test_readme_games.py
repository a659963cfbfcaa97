"""The README's per-game examples work as written: every game on the clock has a schedule that plays in
minutes and one that plays over days, each schedule parses, and each scenario line it tells the GM to
set is a line of the scenario `threadgm new` writes (so it can be edited in place) and gives a game
the rules accept."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.clock.grid import parse_schedule
from engine.rules import REGISTRY
from engine.ruleset import ClockedRuleset

README = Path(__file__).resolve().parent.parent / "README.md"
_SECTION = re.compile(r"^### .*?\(`([a-z-]+)`(?:, `[a-z-]+`)*\)\n((?:(?!^##).*\n)*)", re.M)
_TOML = re.compile(r"```toml\n(.*?)```", re.S)
_SCENARIO_LINE = re.compile(r"and in `scenario\.toml`: `(.+?)`\.")
_SCENARIO_BLOCK = re.compile(r"and in `scenario\.toml`:\n\n```toml\n(.*?)```", re.S)


def _sections() -> dict[str, str]:
    games = README.read_text("utf-8").split("\n## Games\n", 1)[1].split("\n## ", 1)[0]
    return {match[1]: match[2] for match in _SECTION.finditer(games + "\n")}


def _scenario_settings(section: str) -> list[dict]:
    """Each scenario change the section names, as a TOML table (`[options] key = 1` one-liners too)."""
    found = [tomllib.loads(block) for block in _SCENARIO_BLOCK.findall(section)]
    for text in _SCENARIO_LINE.findall(section):
        head, _, rest = text.partition("] ")
        found.append({head[1:]: tomllib.loads(rest)} if text.startswith("[") else tomllib.loads(text))
    return found


CLOCKED = [game for game in REGISTRY.ids() if isinstance(REGISTRY.get(game), ClockedRuleset)]


def test_every_game_on_the_clock_has_its_section() -> None:
    assert set(CLOCKED) <= set(_sections()), sorted(set(CLOCKED) - set(_sections()))


@pytest.mark.parametrize("game", CLOCKED)
def test_a_schedule_of_minutes_and_one_of_days(game: str) -> None:
    section = _sections()[game]
    schedules = [
        tomllib.loads(block)["game"]["schedule"]
        for block in _TOML.findall(section)
        if block.startswith("[game.schedule]")
    ]
    kinds = set()
    for table in schedules:
        parse_schedule(table)  # raises on a schedule the bot would refuse
        kinds.add("minutes" if "interval" in table and table["interval"].endswith("m") else "days")
    assert kinds == {"minutes", "days"}, schedules
    assert "In minutes" in section and "Over days" in section


@pytest.mark.parametrize("game", CLOCKED)
def test_each_scenario_line_is_one_of_the_written_scenario_and_plays(game: str) -> None:
    ruleset = REGISTRY.get(game)
    template = ruleset.template()
    assert template is not None
    for change in _scenario_settings(_sections()[game]):
        scenario = tomllib.loads(template)
        for key, value in change.items():
            if isinstance(value, dict):
                for inner, setting in value.items():
                    assert inner in scenario.get(key, {}), f"{key}.{inner} is not in the written scenario"
                    scenario[key][inner] = setting
            else:
                assert key in scenario, f"{key} is not in the written scenario"
                scenario[key] = value
        ruleset.initial_state(scenario)  # a game the rules accept


def test_the_table_of_games_names_every_registered_game_with_how_it_starts() -> None:
    games = README.read_text("utf-8").split("\n## Games\n", 1)[1].split("\n### ", 1)[0]
    rows = [
        line.split(" | ") for line in games.splitlines() if line.startswith("| `") and "rules =" not in line
    ]
    assert {row[0].strip("| `") for row in rows} == set(REGISTRY.ids())
    assert all(len(row) == 4 and row[3].strip(" |") for row in rows), "what it is, how played, how it starts"


def test_the_first_command_after_make_demo_works_as_written() -> None:
    """`threadgm` lives in .venv (pyproject's script, which `make` installs): the README says how to
    call it before the first `threadgm …` it shows."""
    text = README.read_text("utf-8")
    pyproject = tomllib.loads((README.parent / "pyproject.toml").read_text("utf-8"))
    assert pyproject["project"]["scripts"]["threadgm"] == "scheduler:main"
    assert "$(VENV)/bin/threadgm" in (README.parent / "Makefile").read_text("utf-8")
    told = min(text.index(".venv/bin/threadgm"), text.index(". .venv/bin/activate"))
    first_use = text.index("`threadgm ")
    assert told < first_use
    assert "```sh\nmake demo" in text and "\nmake test " in text  # the two set-up commands, as they were
