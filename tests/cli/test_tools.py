"""The offline tools: their JSON compact by default (the C encoder's), indented with --indent, the same
data; a game named on the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from scheduler import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "naval"


def _adjudicate(*extra: str) -> str:
    result = CliRunner().invoke(
        main,
        [
            "adjudicate",
            "naval",
            "--scenario",
            str(FIXTURES / "seed002.toml"),
            "--orders",
            str(FIXTURES / "seed002_orders.txt"),
            "--format",
            "json",
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_adjudicate_json_is_compact_unless_indented(tmp_path: Path) -> None:
    compact, indented = _adjudicate(), _adjudicate("--indent", "2")
    data = json.loads(compact)
    assert compact == json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"  # no padding
    assert indented.startswith('{\n  "') and indented.count("\n") > 20
    assert json.loads(indented) == data
    saved = tmp_path / "state.json"
    _adjudicate("--save-state", str(saved))
    assert "\n" not in saved.read_text("utf-8")
    assert json.loads(saved.read_text("utf-8")) == data["state"]


def test_a_misspelt_game_on_the_command_line_names_the_game_meant() -> None:
    result = CliRunner().invoke(main, ["help", "battle_royale"])
    assert result.exit_code == 2 and "（「battle-royale」のことですか？）" in result.output
