"""The shared check of a scenario table's keys (engine/ruleset/keys.py)."""

from __future__ import annotations

import tomllib

from engine.ruleset import as_written, close_to, table_of, tables_of, unknown_keys


def test_known_keys_pass_and_each_unknown_one_is_named_in_order() -> None:
    assert unknown_keys({"sides": 6, "rounds": 2}, ("sides", "rounds")) == []
    assert unknown_keys({"zz": 1, "sides": 6, "colour": 2}, ("sides", "rounds"), "[options]") == [
        "[options]に知らない項目「zz」があります（使えるのは rounds、sides）",
        "[options]に知らない項目「colour」があります（使えるのは rounds、sides）",
    ]


def test_a_close_key_is_offered() -> None:
    assert unknown_keys({"max_round": 1}, ("max_rounds", "stat_step")) == [
        "シナリオに知らない項目「max_round」があります（「max_rounds」のことですか？ 使えるのは max_rounds、stat_step）"
    ]
    assert close_to("bogus_key", ("casualty_rate", "max_rounds")) == ""
    assert close_to("casualty_rat", ("casualty_rate", "max_rounds")) == "casualty_rate"


def test_a_key_that_is_not_text_is_named_too() -> None:
    # TOML keys are always text, but a table a game builds itself may not be
    assert unknown_keys({3: "x"}, ("a",)) == ["シナリオに知らない項目「3」があります（使えるのは a）"]


def test_a_value_that_is_no_table_has_no_keys_to_check() -> None:
    # its own reader says what is wrong with it ("[map] は表にしてください"), once
    assert unknown_keys([1, 2], ("a",)) == unknown_keys("text", ("a",)) == unknown_keys(None, ("a",)) == []
    assert tables_of([{"a": 1}, 3, "x"]) == [{"a": 1}] and tables_of({"a": 1}) == []
    assert table_of(5) == {} and table_of({"a": 1}) == {"a": 1}


def test_a_table_that_takes_no_key_says_so() -> None:
    assert unknown_keys({"sides": 6}, ()) == [
        "シナリオに知らない項目「sides」があります（書ける項目はありません）"
    ]


def test_a_value_is_quoted_back_as_the_scenario_writes_it() -> None:
    written = 'a = true\nb = "十"\nc = 2.5\nd = [1, "x", false]\ne = { f = 1, g = "h" }'
    values = tomllib.loads(written)
    assert [f"{key} = {as_written(value)}" for key, value in values.items()] == written.split("\n")
