"""`threadgm simulate dh`: whole games by the plain policy, the same for the same seed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from engine.rules.dh.grammar import ATTACK
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.sim import plain_line
from scheduler import main
from tests.engine.rules.dh.helpers import arena


def test_the_plain_policy_walks_around_walls_and_attacks_on_arrival() -> None:
    state = arena()
    state.characters["アリス"].square = "C3"
    assert plain_line(state, state.characters["アリス"]).square != "C5"  # C4 is a wall: not reachable
    state.characters["カイ"].square = "B3"
    line = plain_line(state, state.characters["アリス"])
    assert (line.square, line.deed, line.target) == ("B3", ATTACK, "カイ")


def test_games_are_counted_and_repeat_for_the_same_seed() -> None:
    data = json.loads(RULESET.simulate({}, 6, "s", as_json=True) or "{}")
    assert data["runs"] == 6 and sum(data["wins"].values()) == 6 and 1 <= data["mean_turns"] <= 8
    assert RULESET.simulate({}, 6, "s", as_json=True) == json.dumps(data, ensure_ascii=False)
    result = CliRunner().invoke(main, ["simulate", "dh", "--runs", "2"])
    assert result.exit_code == 0 and result.output.startswith("DH 自動対戦 2回: 生徒会")
