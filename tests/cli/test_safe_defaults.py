"""Safe by default: `threadgm new` writes a bot key of fresh random bytes and the GM's trip from
`--gm`; `threadgm run` refuses a game with no GM unless its configuration says open_table = true, and
the log says where writers without a trip can act."""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.tripcode import name_and_trip
from engine.config import GameConfig, bot_warning, start_problem, unplayable_seats, untripped_seats
from engine.rules import REGISTRY
from scheduler import BotConfig, main

URL = "http://127.0.0.1:9/test/read.cgi/test/1764590400/"


def _new(tmp_path: Path, folder: str, *extra: str) -> dict:
    result = CliRunner().invoke(main, ["new", "guess", str(tmp_path / folder), "--thread", URL, *extra])
    assert result.exit_code == 0, result.output
    return tomllib.loads((tmp_path / folder / "threadgm.toml").read_text("utf-8"))


def test_each_new_configuration_has_a_bot_key_of_its_own(tmp_path: Path) -> None:
    first, second = _new(tmp_path, "a")["bot"]["name"], _new(tmp_path, "b")["bot"]["name"]
    assert first != second and "ここを自分だけのキーに" not in first
    name, trip = name_and_trip(first)
    assert name == "ダイス係" and trip and len(first.partition("#")[2]) >= 16
    assert trip != "jF4Eq93ff9jq"  # the trip every older install shared


def test_the_gm_key_given_to_new_becomes_the_gm_trip(tmp_path: Path) -> None:
    data = _new(tmp_path, "a", "--gm", "#threadgm-test-key")
    assert data["game"][0]["gm_trips"] == ["◆" + name_and_trip("#threadgm-test-key")[1]]
    assert _new(tmp_path, "b", "--gm", "◆SyRJNUqZWYMT")["game"][0]["gm_trips"] == ["◆SyRJNUqZWYMT"]


def test_a_configuration_new_wrote_without_a_gm_does_not_start(tmp_path: Path) -> None:
    _new(tmp_path, "a")
    ran = CliRunner().invoke(main, ["run", str(tmp_path / "a" / "threadgm.toml")])
    assert (
        ran.exit_code == 1
        and "gm_trips が空のため始めません" in ran.output
        and "open_table = true" in ran.output
    )


def test_a_game_without_a_gm_starts_only_when_its_configuration_says_open_table() -> None:
    assert start_problem(GameConfig("g", "guess", URL)) is not None
    assert start_problem(GameConfig("g", "guess", URL, open_table=True)) is None
    assert start_problem(GameConfig("g", "guess", URL, gm_trips=("SyRJNUqZWYMT",))) is None


def test_the_shared_placeholder_bot_key_is_warned_about() -> None:
    assert "誰でも知っているキー" in bot_warning(BotConfig(name="ダイス係#ここを自分だけのキーに"))
    assert bot_warning(BotConfig(name="ダイス係#k3J9-fresh-key")) is None


@pytest.mark.parametrize(
    ("game", "scenario", "said"),
    [
        ("guess", {}, "命令は誰でも"),
        ("guess", {"players": ["アリス", "ボブ◆SyRJNUqZWYMT"]}, "名前だけで出せます（トリップなし: アリス）"),
    ],
)
def test_where_writers_without_a_trip_can_act_is_said(game: str, scenario: dict, said: str) -> None:
    ruleset = REGISTRY.get(game)
    seats = untripped_seats(ruleset, ruleset.initial_state(scenario))
    assert any(said in seat for seat in seats), seats


def test_a_game_open_to_every_writer_is_warned_about_at_start(caplog: pytest.LogCaptureFixture) -> None:
    from cli.bot import _warn_untripped
    from engine.referee import GameSetup

    ruleset = REGISTRY.get("naval")
    text = "\n".join(line for line in ruleset.template().split("\n") if not line.startswith("players = "))
    setup = GameSetup("naval", ruleset, bytes(32), None, scenario=ruleset.read_scenario(text))
    with caplog.at_level(logging.WARNING, "threadgm"):
        _warn_untripped(setup)
    assert "GMがいません" in caplog.text and "「ABC」は誰でも" in caplog.text


def test_new_asks_for_the_gm_key_at_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.new_game

    monkeypatch.setattr(cli.new_game, "_interactive", lambda: True)
    args = ["new", "guess", str(tmp_path / "a"), "--thread", URL]
    result = CliRunner().invoke(main, args, input="#threadgm-test-key\n")
    assert result.exit_code == 0, result.output
    assert "GMのキー" in result.output
    data = tomllib.loads((tmp_path / "a" / "threadgm.toml").read_text("utf-8"))
    assert data["game"][0]["gm_trips"] == ["◆" + name_and_trip("#threadgm-test-key")[1]]


@pytest.mark.parametrize("game", ["naval", "dh"])
def test_a_scenario_whose_placeholder_trips_were_left_as_new_wrote_them_does_not_start(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README says: edit the scenario's players first. A GM who forgot is told at `run`, before
    the bot posts anything, instead of an opening nobody can order in. (Run where no var/ exists, as
    on a machine that never ran the local board: the database's folder is made.)"""
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(
        main, ["new", game, str(tmp_path / "a"), "--thread", URL, "--gm", "#threadgm-test-key"]
    )
    assert made.exit_code == 0, made.output
    ran = CliRunner().invoke(main, ["run", str(tmp_path / "a" / "threadgm.toml")])
    assert ran.exit_code == 1
    assert "シナリオにトリップではないものがあるため始めません" in ran.output
    assert "◆ここに" in ran.output and "threadgm trip '名前#キー'" in ran.output


def test_owners_written_with_real_trips_or_bare_names_are_playable() -> None:
    ruleset = REGISTRY.get("guess")
    state = ruleset.initial_state({"players": ["アリス", "ボブ◆SyRJNUqZWYMT", "キャロル◆２Ｔ60kJhv4E"]})
    assert unplayable_seats(ruleset, state) == []
    state = ruleset.initial_state({"players": ["ボブ◆#bobkey", "キャロル#carolkey"]})
    # a key where the trip belongs (no name the board shows has a # in it); a player is its own seat
    assert unplayable_seats(ruleset, state) == ["ボブ◆#bobkey", "キャロル#carolkey"]


def test_a_database_that_cannot_be_made_is_named_not_taken_for_the_game_pages_port(tmp_path: Path) -> None:
    _new(tmp_path, "a", "--gm", "#threadgm-test-key")
    path = tmp_path / "a" / "threadgm.toml"
    (tmp_path / "file").write_text("", "utf-8")
    text = re.sub(
        r'(?m)^database = "[^"]*"', f'database = "{tmp_path}/file/x.sqlite"', path.read_text("utf-8")
    )
    path.write_text(text, "utf-8")
    ran = CliRunner().invoke(main, ["run", str(path)])
    assert ran.exit_code == 1
    assert "[bot] database =" in ran.output and "を開けません" in ran.output and "[web]" not in ran.output


@pytest.mark.parametrize("game", ["naval", "battle-royale", "dystopia"])
def test_a_scenario_the_game_refuses_is_a_message_not_a_traceback(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(main, ["new", game, "a", "--thread", URL, "--gm", "#threadgm-test-key"])
    assert made.exit_code == 0, made.output
    scenario = tmp_path / "a" / "scenario.toml"
    text = re.sub(r'◆ここに[^"]*', "◆SyRJNUqZWYMT", scenario.read_text("utf-8"))  # the players' trips
    scenario.write_text(text + "bogus_key = 1\n", "utf-8")  # a typo in the last table
    ran = CliRunner().invoke(main, ["run", "a/threadgm.toml"])
    assert ran.exit_code == 1 and isinstance(ran.exception, SystemExit)  # a message, not a traceback
    assert "a/threadgm.toml: " in ran.output and "bogus_key" in ran.output
