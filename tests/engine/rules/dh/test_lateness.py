"""遅刻ペナルティ from the post times (issue 28): seed-gaps.md — 「a late side loses one character's
action for the first second late, then one more for every further minute」. `resolve_timed` gets the
phase's deadline as the side was given it and measures the side's last counted line against it; the
GM's 設定 late= stays an override (0 included)."""

from __future__ import annotations

from datetime import datetime, timedelta

import regex

from engine.clock.words import JST
from engine.rng import SeededSource
from engine.rules.dh.ruleset import RULESET
from engine.ruleset import Order
from poster.markup import render_body
from tests.engine.rules.dh.helpers import arena

AKA = "赤の人◆AKA0000000"
DEADLINE = datetime(2026, 12, 1, 21, 0, tzinfo=JST)


def _orders(*lines: tuple[str, int]) -> list[Order]:
    found = []
    for number, (text, seconds) in enumerate(lines, start=1):
        parsed = RULESET.parse_line(text)
        at = DEADLINE + timedelta(seconds=seconds)
        found.append(Order(number, 0, AKA, parsed.player, parsed.command, parsed.canonical, at))
    return found


def _lost(state, orders, deadline=DEADLINE):
    _, outcome = RULESET.resolve_timed(state, orders, SeededSource(b"\x03" * 32), deadline)
    return outcome.meta["result"]["late_lost"], render_body(outcome)


def test_a_side_whose_last_line_came_75_seconds_late_loses_two_actions() -> None:
    lost, text = _lost(arena(), _orders(("アリス C2移動", -300), ("ボブ A2移動", 75)))
    assert len(lost) == 2
    assert regex.search(r"遅刻75秒（締切 21:00:00、>>2 21:01:15）: 2人の行動が失われる → \S+、\S+", text)


def test_the_first_second_late_costs_one_action_and_on_time_costs_none() -> None:
    assert len(_lost(arena(), _orders(("アリス C2移動", 1)))[0]) == 1
    assert _lost(arena(), _orders(("アリス C2移動", 0)))[0] == []  # stamped at the deadline: on time
    assert _lost(arena(), _orders(("アリス C2移動", -1)))[0] == []


def test_the_gms_setting_overrides_what_the_post_times_say() -> None:
    late = _orders(("アリス C2移動", 200))
    assert _lost(RULESET.set_value(arena(), "late", "0"), late)[0] == []
    assert len(_lost(RULESET.set_value(arena(), "late", "30"), _orders(("アリス C2移動", -5)))[0]) == 1


def test_without_a_deadline_or_a_posting_time_nothing_is_measured() -> None:
    late = _orders(("アリス C2移動", 200))
    assert _lost(arena(), late, deadline=None)[0] == []  # offline: only the GM's 設定 late counts
    vouched = [
        Order(o.post, o.line, "GM", o.player, o.command, o.canonical, o.written_at, gm=True) for o in late
    ]
    assert _lost(arena(), vouched)[0] == []
    void_late = _orders(("アリス C2移動", -10), ("アリス C3移動", 500))  # a void second line does not count
    assert _lost(arena(), void_late)[0] == []
