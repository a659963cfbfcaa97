"""An order is parsed once and carried as its typed command — which holds only if the command a post's
line is read into is the one its canonical form (what the store keeps) reads back as: the poll that
read a line resolves with the carried command, a later poll (or a restart) with the stored form's.
Checked for every registered game over its own words: the order lines of its HELP and SUMMARY, the
orders of its case files, and にじ野望's corpus of honest lines; read with the game's starting state and
without one (offline)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import REGISTRY
from engine.ruleset import OrderText, Rejection, Ruleset, read_line_of
from tests.case_files import game_folder, registered_cases
from tests.engine.rules.nijiyabou.test_corpus import READ


def _template_state(ruleset: Ruleset) -> Any:
    text = ruleset.template()
    return ruleset.initial_state(ruleset.read_scenario(text) if text is not None else {})


def _lines(ruleset: Ruleset) -> list[str]:
    lines = [*ruleset.HELP.split("\n"), *ruleset.SUMMARY.split("\n")]
    for case in registered_cases():
        if case.game == game_folder(ruleset):
            lines += [line.partition(": ")[2] or line for period in case.periods for line in period.orders]
    if ruleset.ID == "nijiyabou":
        lines += [typed for typed, _ in READ]
    return [line for line in dict.fromkeys(lines) if line.strip()]


@pytest.mark.parametrize("ruleset", list(REGISTRY), ids=lambda ruleset: ruleset.ID)
def test_a_read_order_is_the_command_its_canonical_form_reads_back_as(ruleset: Ruleset) -> None:
    read = 0
    for state in (_template_state(ruleset), None):
        for line in _lines(ruleset):
            parsed = read_line_of(ruleset, state, line)
            if not isinstance(parsed, OrderText):
                assert parsed is None or isinstance(parsed, Rejection)
                continue
            again = ruleset.parse_line(parsed.canonical)
            assert isinstance(again, OrderText), (line, parsed.canonical, again)
            assert again.command == parsed.command, (line, parsed.canonical)
            assert again.canonical == parsed.canonical and again.player == parsed.player, line
            read += 1
    games_with_orders = {"naval", "dh", "nijiyabou", "guess"}
    assert read > 0 or ruleset.ID not in games_with_orders, "the corpus holds none of the game's orders"
