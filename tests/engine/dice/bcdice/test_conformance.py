"""Every case of BCDice's own test data (`../shared/bcdice/*.toml`) through recorded dice.

The files are BCDice's (BSD-3-Clause, see LICENSE-BCDice.txt beside them): read here, never copied.
"""

from __future__ import annotations

import tomllib

import pytest

from engine.dice.bcdice import evaluate
from engine.rng import RecordedDice
from tests.conftest import SHARED, shared_path

FLAGS = ("secret", "success", "failure", "critical", "fumble")


def _cases() -> list:
    directory = SHARED / "bcdice"
    if not directory.is_dir():
        return [pytest.param(None, id="bcdice-test-data-absent")]
    params = []
    for path in sorted(directory.glob("*.toml")):
        with path.open("rb") as file:
            tests = tomllib.load(file)["test"]
        for index, case in enumerate(tests):
            params.append(pytest.param(case, id=f"{path.stem}-{index}-{case['input']}"))
    return params


@pytest.mark.parametrize("case", _cases())
def test_bcdice_case(case: dict | None) -> None:
    if case is None:
        shared_path("bcdice")
    dice = RecordedDice((rand["sides"], rand["value"]) for rand in case["rands"])
    result = evaluate(case["input"], dice)
    if case["output"] == "":
        assert result is None
    else:
        assert result is not None
        assert result.text == case["output"]
        for flag in FLAGS:
            assert getattr(result, flag) is case.get(flag, False), flag
    assert dice.remaining == 0, f"{dice.remaining} recorded dice were never rolled"


def test_the_corpus_is_all_there() -> None:
    directory = shared_path("bcdice")
    count = sum(len(tomllib.loads(path.read_text())["test"]) for path in directory.glob("*.toml"))
    assert count == len(_cases()) >= 264
