"""The shared case-file harness (godip's DATC files): every `engine/rules/<game>/cases/*.case` of every
registered game, read the same way and run through `threadgm adjudicate`'s own path: the game's
`read_orders`, the last order of each `order_key`, `recorded_source` and `resolve`.

A file holds cases, each:

    CASE name
    SCENARIO file.toml      the scenario the case starts from (beside the case file, or in
                            tests/fixtures/<game>/)
    PRESTATE                optional changes to it
    ORDERS                  ORDERS.txt lines, in posting order
    RANDOMS                 the random numbers to use (RANDOMS.txt lines of the game)
    RESULTS                 what the period's result must say
    EVENTS                  optional: texts that must be among the period's events (`none`: no event)
    POSTSTATE               the state after the period
    PERIOD                  optional: another period follows, on the poststate (ORDERS ... again)
    END

How PRESTATE, RESULTS, EVENTS and POSTSTATE lines read is the game's: a game with checks of its own
has `tests/engine/rules/<game>/case_checks.py` exporting `CHECKS`; every other game uses `FlatChecks`,
where each line is `path = value` over the JSON of the state (PRESTATE, POSTSTATE) or of the result
(RESULTS), and EVENTS are texts of the report.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from engine.offline.adjudicate import adjudicate
from engine.report import Report
from engine.rules import REGISTRY
from engine.ruleset import Ruleset, result_data

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("PRESTATE", "ORDERS", "RANDOMS", "RESULTS", "EVENTS", "POSTSTATE")


@dataclass
class Period:
    orders: list[str] = field(default_factory=list)
    randoms: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    events: list[str] | None = None
    poststate: list[str] | None = None


@dataclass
class Case:
    name: str
    path: Path
    game: str = ""
    scenario: str = ""
    prestate: list[str] = field(default_factory=list)
    periods: list[Period] = field(default_factory=lambda: [Period()])

    @property
    def id(self) -> str:
        return f"{self.game}/{self.path.name}:{self.name}"


class _Reader:
    """One file's lines into cases; every line outside a known place is an error naming it."""

    def __init__(self, path: Path, game: str) -> None:
        self.path, self.game = path, game
        self.cases: list[Case] = []
        self.case: Case | None = None
        self.section = ""

    def read(self) -> list[Case]:
        for number, raw in enumerate(self.path.read_text(encoding="utf-8").splitlines(), start=1):
            self._line(number, raw)
        if self.case is not None:
            raise ValueError(f"{self.path.name}: case {self.case.name!r} has no END")
        return self.cases

    def _line(self, number: int, raw: str) -> None:
        text = raw.strip()
        if self.case is None:
            if text.startswith("CASE "):
                self.case, self.section = Case(text[5:].strip(), self.path, self.game), ""
            elif text and not text.startswith("#"):
                raise ValueError(f"{self.path.name}:{number}: text outside a CASE: {raw!r}")
        elif text == "END":
            self.cases.append(self.case)
            self.case = None
        elif text.startswith("SCENARIO "):
            self.case.scenario = text[9:].strip()
        elif text == "PERIOD":
            if self.case.periods[-1].orders or self.case.periods[-1].results:
                self.case.periods.append(Period())
        elif text in SECTIONS:
            self._section(text)
        elif text and not text.startswith("#"):
            self._content(number, raw, text)

    def _section(self, name: str) -> None:
        assert self.case is not None
        self.section = name
        if name == "EVENTS":
            self.case.periods[-1].events = []
        elif name == "POSTSTATE":
            self.case.periods[-1].poststate = []

    def _content(self, number: int, raw: str, text: str) -> None:
        assert self.case is not None
        if self.section == "PRESTATE":
            self.case.prestate.append(text)
        elif self.section in SECTIONS:
            getattr(self.case.periods[-1], self.section.lower()).append(
                raw if self.section == "ORDERS" else text
            )
        else:
            raise ValueError(f"{self.path.name}:{number}: line outside a section: {raw!r}")


def load_cases(path: Path, game: str = "") -> list[Case]:
    return _Reader(path, game).read()


def game_folder(ruleset: Ruleset) -> str:
    """The folder of a registered game: `engine.rules.naval.ruleset` → `naval`."""
    return type(ruleset).__module__.split(".")[2]


def registered_cases() -> list[Case]:
    """Every case of every registered game (a game registered twice, in two modes, counts once)."""
    cases: list[Case] = []
    for folder in dict.fromkeys(game_folder(ruleset) for ruleset in REGISTRY):
        for path in sorted((ROOT / "engine" / "rules" / folder / "cases").glob("*.case")):
            cases += load_cases(path, folder)
    return cases


def cases_of(folder: str) -> list[Case]:
    """The cases of one game folder, as `registered_cases` reads them."""
    return [case for case in registered_cases() if case.game == folder]


def case_test(folder: str) -> Callable[[Case], None]:
    """A parametrized test of every case of one game: each game's own test folder runs its cases
    (`test_case = case_test("naval")` in tests/engine/rules/naval/test_cases.py)."""
    cases = cases_of(folder)
    assert cases, f"engine/rules/{folder}/cases holds no case"

    @pytest.mark.parametrize("case", cases, ids=[case.id for case in cases])
    def test_case(case: Case) -> None:
        run_case(case)

    return test_case


def ruleset_of(folder: str) -> Ruleset:
    return next(ruleset for ruleset in REGISTRY if game_folder(ruleset) == folder)


class Checks(Protocol):
    def prestate(self, ruleset: Ruleset, state: Any, lines: list[str]) -> Any: ...
    def check(self, ruleset: Ruleset, period: Period, outcome: Report, state: Any) -> None: ...


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        return {k: v for key, value in data.items() for k, v in _flat(value, f"{prefix}{key}.").items()}
    return {prefix.rstrip("."): data}


def _pair(line: str) -> tuple[str, Any]:
    path, _, text = line.partition("=")
    try:
        return path.strip(), json.loads(text.strip())
    except json.JSONDecodeError:
        return path.strip(), text.strip()


class FlatChecks:
    """`path = value` lines (the value as JSON, else as text) over the state's and the result's JSON."""

    def prestate(self, ruleset: Ruleset, state: Any, lines: list[str]) -> Any:
        data = ruleset.state_to_dict(state)
        for line in lines:
            path, value = _pair(line)
            *parents, last = path.split(".")
            target = data
            for key in parents:
                target = target.setdefault(key, {})
            target[last] = value
        return ruleset.state_from_dict(data)

    def check(self, ruleset: Ruleset, period: Period, outcome: Report, state: Any) -> None:
        result = _flat(result_data(outcome))
        for line in period.results:
            path, value = _pair(line)
            assert result.get(path) == value, f"RESULTS {line}: the result says {result.get(path)!r}"
        for text in period.events or ():
            assert text == "none" or text in outcome.plain, f"EVENTS {text}: not in the report"
        after = _flat(ruleset.state_to_dict(state))
        for line in period.poststate or ():
            path, value = _pair(line)
            assert after.get(path) == value, f"POSTSTATE {line}: the state says {after.get(path)!r}"


def checks_of(folder: str) -> Checks:
    try:
        module = importlib.import_module(f"tests.engine.rules.{folder}.case_checks")
    except ModuleNotFoundError:
        return FlatChecks()
    return module.CHECKS


def scenario_path(case: Case) -> Path:
    beside = case.path.parent / case.scenario
    return beside if beside.is_file() else ROOT / "tests" / "fixtures" / case.game / case.scenario


def run_case(case: Case) -> None:
    ruleset, checks = ruleset_of(case.game), checks_of(case.game)
    scenario = ruleset.read_scenario(scenario_path(case).read_text(encoding="utf-8")) if case.scenario else {}
    state = checks.prestate(ruleset, ruleset.initial_state(scenario), case.prestate)
    for period in case.periods:
        result = adjudicate(ruleset, state, "\n".join(period.orders), randoms_text="\n".join(period.randoms))
        state = result.state
        checks.check(ruleset, period, result.report, state)
