"""Naval rules: one period of 10,000 orders on a generated scenario of 2,000 islands and 16,000 units —
load, parse, resolve and report apart, CPU seconds, medians of repeated runs — and `threadgm adjudicate
naval` of such a period on a 20,000-unit scenario end to end (load, resolve, JSON out) in a process of
its own, against a process that only imports the same modules (the start the command cannot avoid).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.rng import SeededSource
from engine.rules import naval
from engine.rules.naval.grammar import parse_orders_file
from engine.rules.naval.report import build_report

PAIRS = 1000  # two islands per pair, ten orders per pair
CLI_PAIRS = 1250  # 20,000 units for the command line run
REPEATS = 5
PERIOD_TARGET = 0.3  # seconds for parse + resolve + report
CLI_TARGET = 1.0  # CPU seconds over the process start


def scenario(pairs: int = PAIRS) -> dict[str, Any]:
    """Pairs of islands facing each other around a battle hex, each with ships, a carrier and fighters."""
    islands: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for n in range(pairs):
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
        "map": {"width": 245, "height": 2 + (pairs // 40 + 1) * 5},
        "kinds": {"DD": "sea-control", "CV": "carrier", "LST": "transport", "F": "fighter"},
        "islands": islands,
        "units": units,
    }


def orders_text(pairs: int = PAIRS) -> str:
    lines = []
    for n in range(pairs):
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


def scenario_toml(data: dict[str, Any]) -> str:
    """The scenario as the TOML a GM writes (`[[islands]]` and `[[units]]` tables)."""

    def value(item: Any) -> str:
        if isinstance(item, str):
            return '"' + item + '"'
        if isinstance(item, list):
            return "[" + ", ".join(value(v) for v in item) + "]"
        return str(item)

    out = ["[map]", *(f"{k} = {value(v)}" for k, v in data["map"].items()), "", "[kinds]"]
    out += [f"{k} = {value(v)}" for k, v in data["kinds"].items()]
    for table in ("islands", "units"):
        for entry in data[table]:
            out += ["", f"[[{table}]]", *(f"{k} = {value(v)}" for k, v in entry.items())]
    return "\n".join(out) + "\n"


def _child_cpu(argv: list[str], cwd: Path) -> float:
    """CPU seconds (user + system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def adjudicate_cli(repeats: int = REPEATS) -> None:
    """`threadgm adjudicate naval --format json` of the 10,000-order period on 20,000 units, against
    `python -c "import scheduler"` (what every `threadgm` command loads before it starts)."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        data = scenario(CLI_PAIRS)
        (work / "scenario.toml").write_text(scenario_toml(data), encoding="utf-8")
        (work / "orders.txt").write_text(orders_text(), encoding="utf-8")
        start = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(root)!r}); import scheduler"]
        command = [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {str(root)!r}); from scheduler import main; main()",
            "adjudicate",
            "naval",
            "--scenario",
            "scenario.toml",
            "--orders",
            "orders.txt",
            "--format",
            "json",
        ]
        starts, runs = [], []
        for _ in range(repeats):
            starts.append(_child_cpu(start, work))
            runs.append(_child_cpu(command, work))
    base, run = statistics.median(starts), statistics.median(runs)
    print(
        f"adjudicate naval: {len(data['units'])} units, 10000 orders, JSON out: {run:.2f} CPU-s, "
        f"process start {base:.2f} CPU-s, over the start {run - base:.2f} CPU-s (target {CLI_TARGET})"
    )


def _cpu(action: Callable[..., object], *args: Any) -> tuple[float, Any]:
    began = time.process_time()
    value = action(*args)
    return time.process_time() - began, value


def period(repeats: int = REPEATS) -> None:
    """Load / parse / resolve / report of the 10,000-order period, CPU seconds, medians of `repeats`."""
    figures: dict[str, list[float]] = {"load": [], "parse": [], "resolve": [], "report": []}
    for _ in range(repeats):
        seconds, state = _cpu(naval.initial_state, scenario())
        figures["load"].append(seconds)
        seconds, orders = _cpu(parse_orders_file, orders_text())
        figures["parse"].append(seconds)
        seconds, resolution = _cpu(naval.resolve_period, state, orders, SeededSource(b"bench-naval" * 3))
        figures["resolve"].append(seconds)
        seconds, report = _cpu(build_report, resolution)
        figures["report"].append(seconds)
    counts: dict[str, int] = {}
    for result in resolution.results:
        counts[result.result] = counts.get(result.result, 0) + 1
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print(
        f"scenario: {len(state.islands)} islands, {len(state.units)} units, loaded in {medians['load']:.3f} s"
    )
    print(f"parse:    {len(orders)} orders in {medians['parse']:.3f} s")
    print(f"resolve:  {len(resolution.results)} orders in {medians['resolve']:.3f} s  {counts}")
    print(f"report:   {len(report.plain.splitlines())} lines in {medians['report']:.3f} s")
    total = medians["parse"] + medians["resolve"] + medians["report"]
    print(
        f"period:   parse + resolve + report {total:.3f} s (target {PERIOD_TARGET} s: {total / PERIOD_TARGET:.2f}× of it)"
    )


def main() -> None:
    period()
    adjudicate_cli()


if __name__ == "__main__":
    main()
