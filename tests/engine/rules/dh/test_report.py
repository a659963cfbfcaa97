"""What a DH report and 状態 show: the table with the stats as the rules use them (a state's 防御力+2
counted), the fields on the map (marked and named under it), and no time limit the schedule does not
give."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg
from engine.rng import SeededSource
from engine.rules.dh.report import status_report
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.state import Field, Status
from poster.markup import render_body
from tests.engine.rules.dh.helpers import EXAMPLE, arena


def _row(text: str, name: str) -> list[str]:
    table = text.split("【ステータス】")[1]
    return next(row.split("　") for row in table.split("\n") if row.startswith(name + "　"))


def test_the_table_shows_the_stats_a_state_changes_as_they_count() -> None:
    """The 防御 column said 5 while the state said 防御力+2 and every attack used 7."""
    state = arena()
    state.characters["カイ"].statuses.append(Status("能力値", 2, "defense"))
    state.characters["カイ"].statuses.append(Status("能力値", -3, "attack", until=3))
    row = _row(render_body(status_report(state)), "カイ")
    kai = state.characters["カイ"]
    assert row[3:7] == [str(kai.attack - 3), str(kai.defense + 2), str(kai.hp), str(kai.mind)]
    assert "防御力+2" in row[7] and "攻撃力-3" in row[7]


def test_the_packaged_scenarios_passive_defence_shows_in_the_table_after_the_first_phase() -> None:
    state = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
    _, outcome = RULESET.resolve(state, [], SeededSource(b"\x01" * 32))
    row = _row(render_body(outcome), "会計")
    assert row[4] == str(state.characters["会計"].defense + 2) and "防御力+2" in row[7]


def test_a_field_is_drawn_on_the_map_and_named_under_it() -> None:
    state = arena()
    state.fields.append(Field("アリス", "結界", ["B1", "B2", "C1", "C2"], until=4))
    text = render_body(status_report(state))
    board = text.split("【MAP】")[1].split("【ステータス】")[0]
    rows = {row.split("　")[0]: row.split("　") for row in board.split("\n") if row}
    assert rows["B"][1] == "①" and rows["C"][1] == "アリス①" and rows["C"][2] == "①"
    assert "① フィールド「結界」（アリス・赤）: B1・B2・C1・C2（第2ターン後手の開始まで）" in board


def test_the_picture_draws_each_field_over_its_squares() -> None:
    state = arena()
    state.fields.append(Field("アリス", "結界", ["B1", "C1"]))
    root = ET.fromstring(RULESET.picture(state))
    fields = {
        g.get("data-square")
        for g in root.iter(f"{{{svg.SVG_NS}}}g")
        if g.get("class") == "square"
        for child in g
        if child.get("class") == "field" and child.get("data-field") == "結界"
    }
    assert fields == {"B1", "C1"}
    assert "① フィールド「結界」（アリス）: B1・C1" in RULESET.picture(state)


def test_no_time_limit_is_printed_that_the_schedule_does_not_set() -> None:
    """「制限時間20分」 was printed from a scenario number while the bot's deadline was 10 minutes: the
    deadline is the period's, stated by the referee beside the report."""
    state = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
    _, outcome = RULESET.resolve(state, [], SeededSource(b"\x02" * 32))
    for text in (render_body(outcome), render_body(status_report(state))):
        assert "制限時間" not in text and "次: フェイズ" in render_body(outcome)
