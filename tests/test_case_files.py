"""Every case file of every registered game, through the one harness of tests/case_files.py."""

from __future__ import annotations

import pytest

from tests.case_files import Case, game_folder, registered_cases, run_case

CASES = registered_cases()


def test_every_game_with_case_files_is_covered() -> None:
    games = {case.game for case in CASES}
    assert {"naval", "guess"} <= games
    assert sum(case.game == "naval" for case in CASES) >= 40
    from engine.rules import REGISTRY

    assert games <= {game_folder(ruleset) for ruleset in REGISTRY}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case: Case) -> None:
    run_case(case)
