"""How naval case files read (tests/case_files.py runs them):

PRESTATE    `ID (x,y)`, `ID base=B`, `-ID`, `PERIOD n`, `OPTION key=value`
RESULTS     one line per order: `N RESULT RANDOM [winner=ID] [loser=ID] [forced=A|B]
            [strengths=MINE/THEIRS] [reason=TEXT]` (RANDOM is `ABC-A` or `-`, TEXT a part of the reason)
EVENTS      texts that must be among the period's events (`none`: no event)
POSTSTATE   every unit after the period: `ID (x,y)`, `ID base=B`, `ID stranded (x,y)`
"""

from __future__ import annotations

from engine.report import Report
from engine.rules.naval.state import NavalState
from engine.ruleset import Ruleset, result_data
from tests.case_files import Period


def _hex(text: str) -> tuple[int, int]:
    x, y = text.strip("()").split(",")
    return int(x), int(y)


def unit_lines(state: NavalState) -> list[str]:
    lines = []
    for unit in state.units.values():
        if unit.base is not None:
            lines.append(f"{unit.id} base={unit.base}")
        else:
            assert unit.hex is not None
            stranded = "stranded " if unit.category == "fighter" else ""
            lines.append(f"{unit.id} {stranded}({unit.hex[0]},{unit.hex[1]})")
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


def _label(item: dict) -> str:
    random = item["random"]
    return "-" if random is None else f"{random['island']}-{random['letter']}"


def _check_result(line: str, item: dict) -> None:
    expected, shown = expected_result(line), item["line"]
    got = {"index": item["index"], "result": item["result"], "random": _label(item)}
    assert got == {k: expected[k] for k in ("index", "result", "random")}, shown
    for key in ("winner", "loser", "forced"):
        if key in expected:
            assert item[key] == expected[key], f"{key}: {shown}"
    if "strengths" in expected:
        assert "/".join(map(str, item["strengths"] or [])) == expected["strengths"], shown
    if "reason" in expected:
        assert str(expected["reason"]) in item["reason"], shown


class NavalChecks:
    def prestate(self, ruleset: Ruleset, state: NavalState, lines: list[str]) -> NavalState:
        for item in lines:
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
                state.units[head].hex = _hex(rest)
        return state

    def check(self, ruleset: Ruleset, period: Period, outcome: Report, state: NavalState) -> None:
        data = result_data(outcome)
        got = data["orders"]
        assert len(got) == len(period.results), f"{len(got)} results, the case lists {len(period.results)}"
        for line, item in zip(period.results, got, strict=True):
            _check_result(line, item)
        if period.events == ["none"]:
            assert data["events"] == []
        for text in period.events or ():
            if text != "none":
                assert any(text in event for event in data["events"]), (text, data["events"])
        if period.poststate is not None:
            assert unit_lines(state) == sorted(period.poststate)


CHECKS = NavalChecks()
