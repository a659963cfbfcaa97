"""`threadgm`'s command group: each command loads what it uses when it runs (not a timed test: the
modules a command imports are what is checked), and `threadgm --help` lists every command with the
line the command itself would show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.main import COMMANDS, _part, build
from engine.rules import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
NAVAL = ROOT / "tests" / "fixtures" / "naval"
ORDERS = ("--orders", str(NAVAL / "seed002_orders.txt"), "--format", "json")
HEAVY = ("bot.", "board.server", "waitress", "requests", "apscheduler", "sqlite_utils", "store.", "web.")


def test_the_listing_says_what_each_command_says() -> None:
    main = build(REGISTRY)
    ctx = click.Context(main)
    built = {command.name for part in {p for p, _ in COMMANDS.values()} for command in _part(part, REGISTRY)}
    assert built == set(COMMANDS)  # no command missing from the listing, none listed that is not one
    for name, (_, text) in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        for limit in (40, 58, 300):
            assert click.Command(name, help=text).get_short_help_str(limit) == command.get_short_help_str(
                limit
            )


def test_an_unknown_command_is_refused() -> None:
    result = CliRunner().invoke(build(REGISTRY), ["nosuch"])
    assert result.exit_code == 2 and "No such command 'nosuch'" in result.output


def _loaded(*argv: str) -> list[str]:
    """The modules a `threadgm ARGV` process holds when the command is done."""
    script = (
        "import json, sys\n"
        "from scheduler import main\n"
        "try:\n"
        f"    main({list(argv)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.splitlines()[-1])


@pytest.mark.parametrize(
    ("argv", "wanted", "games"),
    [
        (("--help",), None, []),
        (("trip", "名無し#key"), "board.tripcode", []),
        (("roll", "2D6"), "engine.dice.post", []),
        (("help", "naval"), "engine.rules.naval", ["naval"]),
        (  # reading a GM's files loads no configuration checks (nor, with them, the scheduler library)
            ("adjudicate", "naval", "--scenario", str(NAVAL / "seed002.toml"), *ORDERS),
            "engine.rules.naval.resolution",
            ["naval"],
        ),
    ],
)
def test_a_command_loads_what_it_uses(argv: tuple[str, ...], wanted: str | None, games: list[str]) -> None:
    modules = _loaded(*argv)
    assert wanted is None or wanted in modules
    assert [m for m in modules if m.startswith(HEAVY)] == []
    loaded_games = {m.split(".")[2] for m in modules if m.startswith("engine.rules.") and m.count(".") >= 2}
    assert sorted(loaded_games) == games
