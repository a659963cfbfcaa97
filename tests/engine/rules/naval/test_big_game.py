"""Big periods: the garbage collector held off and given back, the scenario read faster but as tomllib
reads it, a scenario built once, and the report's line text equal to what its markup says."""

from __future__ import annotations

import gc
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from engine.offline.adjudicate import starting_state
from engine.rng import SeededSource
from engine.rules import naval
from engine.rules.naval import big_game
from engine.rules.naval.grammar import parse_orders_file
from engine.rules.naval.report import build_report, order_line
from engine.ruleset import RulesetError

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "naval"
ROOT = Path(__file__).resolve().parents[4]


def test_the_collector_is_held_off_for_the_call_and_given_back_even_on_an_error() -> None:
    seen: list[bool] = []

    @big_game.gc_paused
    def work(fail: bool) -> int:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("boom")
        return 7

    assert gc.isenabled()
    assert work(False) == 7 and gc.isenabled()
    with pytest.raises(ValueError, match="boom"):
        work(True)
    assert gc.isenabled() and seen == [False, False]
    gc.disable()
    try:
        work(False)  # a caller that turned it off keeps it off
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_scenarios_read_as_tomllib_reads_them_and_broken_ones_get_its_error() -> None:
    files = [*ROOT.glob("engine/rules/*/scenarios/*.toml"), *(ROOT / "tests" / "fixtures").rglob("*.toml")]
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            expected = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        assert big_game.read_toml(text) == expected, path
    broken = '[map]\nwidth = 10\nheight = "x'
    with pytest.raises(tomllib.TOMLDecodeError) as got:
        big_game.read_toml(broken)
    with pytest.raises(tomllib.TOMLDecodeError) as want:
        tomllib.loads(broken)
    assert str(got.value) == str(want.value)
    with pytest.raises(RulesetError, match="シナリオのTOMLが読めません"):
        naval.RULESET.read_scenario(broken)


def test_a_scenario_checked_by_read_scenario_is_built_once_and_handed_out_once() -> None:
    text = (FIXTURES / "seed002.toml").read_text(encoding="utf-8")
    table = naval.RULESET.read_scenario(text)
    first = naval.RULESET.initial_state(table)
    again = naval.RULESET.initial_state(table)  # the kept game went to the first caller
    assert first is not again and naval.state_to_dict(first) == naval.state_to_dict(again)
    other = naval.RULESET.read_scenario(text)
    fresh = naval.RULESET.initial_state(dict(other))  # another table: built from it
    assert naval.state_to_dict(fresh) == naval.state_to_dict(first)
    assert naval.RULESET.initial_state(other) is not fresh


def test_report_lines_and_their_text_in_the_result_agree() -> None:
    start = starting_state(naval.RULESET, (FIXTURES / "seed002.toml").read_text(encoding="utf-8"), None)
    orders = parse_orders_file((FIXTURES / "seed002_orders.txt").read_text(encoding="utf-8"))
    resolution = naval.resolve_period(start, orders, SeededSource(b"lines" * 8))
    report = build_report(resolution)
    assert "state" not in report.meta["result"]  # the state is converted by whoever keeps it
    shown = [item["line"] for item in report.meta["result"]["orders"]]
    assert shown == [order_line(result).plain for result in resolution.results]
    assert len(shown) == len(orders) and not any(text.startswith(">>") for text in shown)
    posted = [o for o in orders if not isinstance(o, naval.NavalOrderError)]
    numbered = [replace(order, post=10 + n) for n, order in enumerate(posted)]
    with_posts = naval.resolve_period(start, numbered, SeededSource(b"x" * 32))
    lines = build_report(with_posts).meta["result"]["orders"]
    assert [item["line"] for item in lines] == [order_line(result).plain for result in with_posts.results]
    assert lines[0]["line"].startswith(">>10 ")
