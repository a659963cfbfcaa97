"""The bench's phase is a real one: every character of the side acts (the time is `python -m bench dh`'s)."""

from __future__ import annotations

from bench.bench_dh import PER_SIDE, orders, scenario
from engine.rng import SeededSource
from engine.rules.dh.ruleset import RULESET
from engine.ruleset import result_data


def test_the_bench_scenario_has_every_character_acting() -> None:
    state = RULESET.initial_state(scenario())
    state.started = True
    _, outcome = RULESET.resolve(state, RULESET.read_orders(state, orders(state)), SeededSource(bytes(32)))
    actions = result_data(outcome)["actions"]
    assert len(actions) == PER_SIDE and all("none" not in record for record in actions.values())
    assert any(record.get("power") == "波動" for record in actions.values())
