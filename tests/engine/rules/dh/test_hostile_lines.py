"""Hostile and random lines through DH's own intake and resolution never raise (issue 24): reading
with the names, the receipt's check and promise, and the phase — property-based, with Hypothesis, over
the game's own words, squares of any script and size, anchors, and characters of every kind."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rng import SeededSource
from engine.rules.dh.ruleset import RULESET
from engine.ruleset import Order, OrderText, Rejection
from tests.engine.rules.dh.helpers import EXAMPLE

STATE = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
WORDS = [
    *STATE.characters,
    "断罪",
    "守護結界",
    "能力",
    "特殊能力の使用",
    "「",
    "」",
    "攻撃",
    "通常攻撃",
    "移動",
    "待機",
    "再行動",
    "対象は",
    "移動先は",
    "、",
    ",",
    ":",
    "：",
    " ",
    "　",
    "へ",
    "に",
    "を",
    "で",
    "は",
    ">>",
    ">>1",
    "・",
    "C3",
    "A4",
    "E7",
    "B100",
    "C٣",
    "Ｃ４",
    "Z9",
    "C0",
    "C99999999",
    "፩",
    "\u200b",
    "\t",
    "ｗ",
]
STRANGER = "通りすがり◆stranger00"  # a trip no side lists: every other line is the GM's (gm=True)
LINE = st.lists(st.sampled_from(WORDS) | st.text(max_size=3), max_size=12).map("".join)


def _order(text: str, number: int) -> Order | Rejection | None:
    read = RULESET.read_line(STATE, text)
    if not isinstance(read, OrderText):
        return read
    return Order(number, 0, STRANGER, read.player, read.command, read.canonical, gm=number % 2 == 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, min_size=1, max_size=8))
def test_any_lines_are_read_checked_promised_and_resolved_without_raising(lines: list[str]) -> None:
    taken: list[Order] = []
    for number, text in enumerate(lines, start=1):
        order = _order(text, number)
        if not isinstance(order, Order):
            continue
        reason = RULESET.check(STATE, order)
        assert reason is None or isinstance(reason, str)
        if reason is None:
            remark = RULESET.remark(STATE, order, taken)
            assert remark is None or isinstance(remark, str)
            taken.append(order)
            again = RULESET.parse_line(order.canonical)  # stored lines are read back without the state
            assert isinstance(again, OrderText) and again.command == order.command
    after, outcome = RULESET.resolve(STATE, taken, SeededSource(bytes(32)))
    assert outcome.blocks and after.phase in (STATE.phase, STATE.phase + 1)
