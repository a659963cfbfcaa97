"""Every case file of every registered game is run from that game's own test folder
(tests/engine/rules/<game>/test_cases.py, through the one harness of tests/case_files.py)."""

from __future__ import annotations

from tests.case_files import ROOT, game_folder, registered_cases


def test_every_game_with_case_files_runs_them_from_its_own_tests() -> None:
    from engine.rules import REGISTRY

    cases = registered_cases()
    games = {case.game for case in cases}
    assert {"naval", "guess", "dh", "dystopia", "nijiyabou"} <= games
    assert sum(case.game == "naval" for case in cases) >= 40
    assert games <= {game_folder(ruleset) for ruleset in REGISTRY}
    for game in games:
        runner = ROOT / "tests" / "engine" / "rules" / game / "test_cases.py"
        assert f'case_test("{game}")' in runner.read_text(encoding="utf-8"), runner
