"""The naval rules against godip-style case files: `engine/rules/naval/cases/*.case`.

A case file holds cases, each:

    CASE name
    SCENARIO file.toml          the scenario (in tests/fixtures/naval/) the case starts from
    PRESTATE                    optional changes to it: `ID (x,y)`, `ID base=B`, `-ID`, `PERIOD n`,
                                `OPTION key=value`
    ORDERS                      ORDERS.txt lines, in posting order
    RANDOMS                     RANDOMS.txt lines (the published numbers A, B, C, ... per island)
    RESULTS                     one line per order: `N RESULT RANDOM [winner=ID] [loser=ID] [forced=A|B]
                                [strengths=MINE/THEIRS] [reason=TEXT]` (RANDOM is `ABC-A` or `-`, TEXT a
                                part of the reason)
    EVENTS                      optional: texts that must be among the period's events (`none`: no event)
    POSTSTATE                   every unit after the period: `ID (x,y)`, `ID base=B`, `ID stranded (x,y)`
    PERIOD                      optional: another period follows, on the poststate (ORDERS ... again)
    END
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.rules import naval
from engine.rules.naval.orders import parse_orders_file, parse_randoms_file
from engine.rules.naval.resolve import resolve_period
from engine.rules.naval.state import NavalState

CASES_DIR = Path(__file__).resolve().parents[4] / "engine" / "rules" / "naval" / "cases"
SCENARIOS = Path(__file__).resolve().parents[3] / "fixtures" / "naval"
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
    file: str
    scenario: str = ""
    prestate: list[str] = field(default_factory=list)
    periods: list[Period] = field(default_factory=lambda: [Period()])


def load_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    case: Case | None = None
    section = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if case is None:
            if text.startswith("CASE "):
                case, section = Case(text[5:].strip(), path.name), ""
            elif text and not text.startswith("#"):
                raise ValueError(f"{path.name}:{number}: text outside a CASE: {raw!r}")
            continue
        if text == "END":
            cases.append(case)
            case = None
        elif text.startswith("SCENARIO "):
            case.scenario = text[9:].strip()
        elif text == "PERIOD":
            if case.periods[-1].orders or case.periods[-1].results:
                case.periods.append(Period())
        elif text in SECTIONS:
            section = text
            if section == "EVENTS":
                case.periods[-1].events = []
            elif section == "POSTSTATE":
                case.periods[-1].poststate = []
        elif not text or text.startswith("#"):
            continue
        elif section == "PRESTATE":
            case.prestate.append(text)
        elif section in ("ORDERS", "RANDOMS", "RESULTS", "EVENTS", "POSTSTATE"):
            getattr(case.periods[-1], section.lower()).append(raw if section == "ORDERS" else text)
        else:
            raise ValueError(f"{path.name}:{number}: line outside a section: {raw!r}")
    if case is not None:
        raise ValueError(f"{path.name}: case {case.name!r} has no END")
    return cases


def all_cases() -> list[Case]:
    return [case for path in sorted(CASES_DIR.glob("*.case")) for case in load_cases(path)]


def parse_hex(text: str) -> tuple[int, int]:
    x, y = text.strip("()").split(",")
    return int(x), int(y)


def prestate(case: Case) -> NavalState:
    state = naval.load_scenario((SCENARIOS / case.scenario).read_text(encoding="utf-8"))
    for item in case.prestate:
        head, _, rest = item.partition(" ")
        if head == "PERIOD":
            state.period = int(rest)
        elif head == "OPTION":
            key, _, value = rest.partition("=")
            setattr(state.options, key.strip(), int(value))
        elif head.startswith("-"):
            del state.units[head[1:]]
        elif rest.startswith("base="):
            state.units[head].base = rest[5:]
        else:
            state.units[head].hex = parse_hex(rest)
    return state


def unit_lines(state: NavalState) -> list[str]:
    lines = []
    for unit in state.units.values():
        if unit.base is not None:
            lines.append(f"{unit.id} base={unit.base}")
        elif unit.category == "fighter":
            assert unit.hex is not None
            lines.append(f"{unit.id} stranded ({unit.hex[0]},{unit.hex[1]})")
        else:
            assert unit.hex is not None
            lines.append(f"{unit.id} ({unit.hex[0]},{unit.hex[1]})")
    return sorted(lines)


def expected_result(line: str) -> dict[str, object]:
    head, _, reason = line.partition("reason=")
    index, result, random, *pairs = head.split()
    expected: dict[str, object] = {"index": int(index), "result": result, "random": random}
    for pair in pairs:
        key, _, value = pair.partition("=")
        expected[key] = value
    if reason:
        expected["reason"] = reason.strip()
    return expected


def actual_result(item: dict[str, object]) -> dict[str, object]:
    random = item["random"]
    label = "-" if random is None else f"{random['island']}-{random['letter']}"  # type: ignore[index]
    return {"index": item["index"], "result": item["result"], "random": label}


CASES = all_cases()


def test_the_case_files_hold_cases() -> None:
    files = {case.file for case in CASES}
    assert {
        "seed002.case",
        "strength.case",
        "validity.case",
        "forced.case",
        "interception.case",
        "evacuation.case",
        "randoms.case",
    } <= files
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[f"{case.file}:{case.name}" for case in CASES])
def test_case(case: Case) -> None:
    state = prestate(case)
    for number, period in enumerate(case.periods, start=1):
        orders = parse_orders_file("\n".join(period.orders))
        source = naval.recorded_randoms(state, parse_randoms_file("\n".join(period.randoms)))
        resolution = resolve_period(state, orders, source)
        data = naval.resolution_to_dict(resolution)
        got = data["orders"]
        assert len(got) == len(period.results), (
            f"period {number}: {len(got)} results, case lists {len(period.results)}"
        )
        for line, item in zip(period.results, got, strict=True):
            expected = expected_result(line)
            shown = item["line"]
            assert actual_result(item) == {k: expected[k] for k in ("index", "result", "random")}, shown
            for key in ("winner", "loser", "forced"):
                if key in expected:
                    assert item[key] == expected[key], f"{key}: {shown}"
            if "strengths" in expected:
                assert "/".join(map(str, item["strengths"] or [])) == expected["strengths"], shown
            if "reason" in expected:
                assert expected["reason"] in item["reason"], shown
        if period.events is not None:
            if period.events == ["none"]:
                assert data["events"] == []
            for text in period.events:
                if text != "none":
                    assert any(text in event for event in data["events"]), (text, data["events"])
        if period.poststate is not None:
            assert unit_lines(resolution.state) == sorted(period.poststate), f"period {number}"
        state = resolution.state
