"""A naval war ends at the scenario's `last_period` or when no two islands have units left; the last
report says why and what is left, and no end is announced before."""

from __future__ import annotations

import tomllib

from engine.rng import RecordedDice, RecordedSource
from engine.rules.naval.ruleset import RULESET
from engine.ruleset import Order


def _template(**options: int) -> dict:
    scenario = tomllib.loads(RULESET.template() or "")
    scenario["options"].update(options)
    for island in scenario["islands"]:
        island["players"] = []  # anyone may order: these tests are about the end, not the authors
    return scenario


def _period(state, *lines: str):
    orders = []
    for number, text in enumerate(lines, start=1):
        parsed = RULESET.parse_line(text)
        orders.append(Order(number, 0, "GM", "GM", parsed.command, parsed.canonical))
    return RULESET.resolve(state, orders, RecordedSource(default=RecordedDice([(100, 99)] * 12)))


def test_the_template_war_ends_with_its_last_period_and_lists_what_is_left() -> None:
    state = RULESET.initial_state(_template())
    assert state.options.last_period == 10
    for _ in range(9):
        state, outcome = _period(state)
        assert not RULESET.finished(state) and "【終戦】" not in outcome.plain
    state, last = _period(state)
    assert RULESET.finished(state)
    assert "ピリオド10（シナリオで決めた最後のピリオド）で終わりました" in last.plain
    assert "ABC島: 残り3ユニット" in last.plain and "【勝利】" not in last.plain


def test_the_war_ends_when_one_island_alone_has_units() -> None:
    state = RULESET.initial_state(_template(last_period=0))
    # XYZ keeps one destroyer; the rest of its fleet is gone before the war's last battle
    state.units = {k: v for k, v in state.units.items() if not k.startswith("XYZ") or k == "XYZ-DD-X-01"}
    state, outcome = _period(state, "＜移動＞XYZ-DD-X-01、(5,3)")
    assert not RULESET.finished(state)
    state, outcome = _period(
        state, "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01"
    )  # 8 against 8; 99 wins for the attacker
    assert "XYZ-DD-X-01" not in state.units
    assert RULESET.finished(state)
    assert "ABC島のほかにユニットの残る島がなくなりました" in outcome.plain
    assert "【勝利】ABC島" in outcome.plain and "XYZ島: 残り0ユニット" in outcome.plain


def test_no_limit_and_two_fleets_never_end() -> None:
    state = RULESET.initial_state(_template(last_period=0))
    for _ in range(30):
        state, _ = _period(state)
    assert not RULESET.finished(state)
    assert "終戦はユニットの残る島が1つになったとき" in RULESET.rules_in_force(state)
