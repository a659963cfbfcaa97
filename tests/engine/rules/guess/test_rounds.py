"""数当て ends after the scenario's `rounds` updates with the highest score winning; 0 rounds never ends."""

from __future__ import annotations

from engine.rng import RecordedDice, RecordedSource
from engine.rules.guess.ruleset import RULESET
from engine.ruleset import Order


def _period(state, guesses: dict[str, int], target: int):
    orders = [
        Order(n, 0, who, who, value, f"＜予想＞{value}") for n, (who, value) in enumerate(guesses.items(), 1)
    ]
    return RULESET.resolve(state, orders, RecordedSource(default=RecordedDice([(100, target)])))


def test_the_game_ends_after_its_rounds_and_names_the_highest_score() -> None:
    state = RULESET.initial_state({"rounds": 2})
    state, first = _period(state, {"アリス": 40, "ボブ": 70}, 45)
    assert not RULESET.finished(state) and "champions" not in first.meta["result"]
    state, last = _period(state, {"アリス": 10, "ボブ": 70}, 20)
    assert RULESET.finished(state)
    assert last.meta["result"]["champions"] == ["アリス"]
    assert "【優勝】アリス（2点）" in last.plain
    assert "【優勝】アリス（2点）" in RULESET.status(state).plain


def test_a_tie_crowns_everyone_on_top_and_no_hit_crowns_no_one() -> None:
    state = RULESET.initial_state({"rounds": 1})
    state, tie = _period(state, {"アリス": 40, "ボブ": 50}, 45)
    assert tie.meta["result"]["champions"] == ["アリス", "ボブ"]
    state = RULESET.initial_state({"rounds": 1})
    state, none = _period(state, {}, 45)
    assert RULESET.finished(state) and "【優勝】なし" in none.plain


def test_zero_rounds_never_ends_and_older_states_read_as_endless() -> None:
    state = RULESET.initial_state({})
    for target in range(1, 30):
        state, _ = _period(state, {"アリス": 50}, target)
    assert not RULESET.finished(state)
    saved = RULESET.state_to_dict(state)
    del saved["rounds"]  # a state stored before games of 数当て could end
    assert RULESET.state_from_dict(saved).rounds == 0


def test_the_opening_names_the_length_of_the_game() -> None:
    assert "全5回で終了" in RULESET.rules_in_force(RULESET.initial_state({"rounds": 5}))
