"""Naval rules: time to resolve one period of 10,000 orders on a generated scenario of 2,000 islands."""

from __future__ import annotations

import time
from typing import Any

from engine.rng import SeededSource
from engine.rules import naval
from engine.rules.naval.orders import parse_orders_file
from engine.rules.naval.report import build_report

PAIRS = 1000  # two islands per pair, ten orders per pair


def scenario() -> dict[str, Any]:
    """Pairs of islands facing each other around a battle hex, each with ships, a carrier and fighters."""
    islands: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for n in range(PAIRS):
        x, y = 3 + (n % 40) * 6, 2 + (n // 40) * 5
        for side, dx in (("P", -2), ("Q", 2)):
            code = f"{side}{n:04d}"
            islands.append({"code": code, "home": [x + dx, y]})
            for k in (1, 2, 3):
                units.append(
                    {"id": f"{code}-DD-A-{k:02d}", "hex": [x, y], "anti_air": 3 + k, "anti_ship": 4 + k}
                )
            units.append({"id": f"{code}-CV-A-01", "hex": [x, y], "anti_air": 2, "anti_ship": 2})
            units.append({"id": f"{code}-LST-A-01", "hex": [x, y]})
            units.append({"id": f"{code}-F-A-01", "base": code, "anti_air": 6, "anti_ship": 6})
            units.append({"id": f"{code}-F-A-02", "base": f"{code}-CV-A-01", "anti_air": 7, "anti_ship": 5})
            units.append({"id": f"{code}-F-A-03", "base": f"{code}-CV-A-01", "anti_air": 5, "anti_ship": 5})
    return {
        "map": {"width": 245, "height": 130},
        "kinds": {"DD": "sea-control", "CV": "carrier", "LST": "transport", "F": "fighter"},
        "islands": islands,
        "units": units,
    }


def orders_text() -> str:
    lines = []
    for n in range(PAIRS):
        p, q = f"P{n:04d}", f"Q{n:04d}"
        lines += [
            f"{p}:＜攻撃＞{p}-DD-A-01、{q}-DD-A-01",
            f"{q}:＜攻撃＞{q}-DD-A-02、{p}-DD-A-02",
            f"{p}:＜攻撃＞{p}-DD-A-03、{q}-LST-A-01",
            f"{q}:＜攻撃＞{q}-DD-A-03、{p}-CV-A-01",
            f"{q}:＜攻撃＞{q}-F-A-01、{p}-DD-A-01",
            f"{p}:＜インターセプト＞{p}-F-A-02、{q}-F-A-01",
            f"{p}:＜攻撃＞{p}-F-A-01、{q}-DD-A-02",
            f"{q}:＜移動＞{q}-CV-A-01、({3 + (n % 40) * 6 + 1},{2 + (n // 40) * 5})",
            f"{p}:＜攻撃＞{p}-F-A-03、{q}-CV-A-01",
            f"{q}:＜攻撃＞{q}-DD-A-01、{p}-DD-A-03",
        ]
    return "\n".join(lines)


def main() -> None:
    started = time.perf_counter()
    state = naval.initial_state(scenario())
    loaded = time.perf_counter()
    orders = parse_orders_file(orders_text())
    parsed = time.perf_counter()
    resolution = naval.resolve_period(state, orders, SeededSource(b"bench-naval" * 3))
    resolved = time.perf_counter()
    report = build_report(resolution)
    reported = time.perf_counter()
    counts: dict[str, int] = {}
    for result in resolution.results:
        counts[result.result] = counts.get(result.result, 0) + 1
    print(
        f"scenario: {len(state.islands)} islands, {len(state.units)} units, loaded in {loaded - started:.3f} s"
    )
    print(f"orders:   {len(orders)} parsed in {parsed - loaded:.3f} s")
    print(f"resolve:  {len(resolution.results)} orders in {resolved - parsed:.3f} s  {counts}")
    print(f"report:   {len(report.plain.splitlines())} lines built in {reported - resolved:.3f} s")
