"""Naval rules: one period of 10,000 orders — load, parse, resolve, report and the JSON apart, CPU
seconds, medians of repeated runs — on maps of two shapes: `pairs` (2,000 islands of eight units
each, facing in pairs around a battle hex) and `islands` (6,000 islands of three units each: more
islands, fewer units). Then `threadgm adjudicate naval --format json` of such a period end to end
(load, resolve, JSON out) in a process of its own, on each shape (20,000 and 18,000 units), against a
process that only imports the command line (the start the command cannot avoid). `python -m bench
naval [--shape pairs|islands]`.
"""

from __future__ import annotations

import argparse
import json
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


ISLANDS = 6000  # three units each; 10,000 orders


def islands_scenario(islands: int = ISLANDS) -> dict[str, Any]:
    """Many small islands: each pair of neighbours faces across a hex, two ships and a fighter apiece."""
    entries: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for n in range(islands // 2):
        x, y = 3 + (n % 40) * 6, 2 + (n // 40) * 5
        for side, dx in (("P", -2), ("Q", 2)):
            code = f"{side}{n:04d}"
            entries.append({"code": code, "home": [x + dx, y]})
            units.append(
                {"id": f"{code}-DD-A-01", "hex": [x + dx // 2, y], "anti_air": 3, "anti_ship": 5 + n % 3}
            )
            units.append({"id": f"{code}-DD-A-02", "hex": [x, y], "anti_air": 4, "anti_ship": 4})
            units.append({"id": f"{code}-F-A-01", "base": code, "anti_air": 6, "anti_ship": 5})
    return {
        "map": {"width": 245, "height": 2 + (islands // 80 + 1) * 5},
        "kinds": {"DD": "sea-control", "F": "fighter"},
        "islands": entries,
        "units": units,
    }


def islands_orders(islands: int = ISLANDS) -> str:
    lines = []
    for n in range(islands // 2):
        p, q = f"P{n:04d}", f"Q{n:04d}"
        lines += [
            f"{p}:＜攻撃＞{p}-DD-A-02、{q}-DD-A-02",
            f"{q}:＜攻撃＞{q}-F-A-01、{p}-DD-A-01",
            f"{p}:＜インターセプト＞{p}-F-A-01、{q}-F-A-01",
        ]
        if n % 3 == 0:
            lines.append(f"{q}:＜移動＞{q}-DD-A-01、({3 + (n % 40) * 6 + 1},{3 + (n // 40) * 5})")
    return "\n".join(lines[:10_000])


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


SHAPES: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[], str], Callable[[], dict[str, Any]]]] = {
    # name: (the period's scenario, its orders, the command line's scenario)
    "pairs": (scenario, orders_text, lambda: scenario(CLI_PAIRS)),
    "islands": (islands_scenario, islands_orders, islands_scenario),
}


def adjudicate_cli(shape: str, repeats: int = REPEATS) -> None:
    """`threadgm adjudicate naval --format json` of the shape's 10,000-order period, against
    `python -c "import scheduler"` (what every `threadgm` command loads before it starts)."""
    root = Path(__file__).resolve().parent.parent
    _, orders, cli_scenario = SHAPES[shape]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        data = cli_scenario()
        (work / "scenario.toml").write_text(scenario_toml(data), encoding="utf-8")
        (work / "orders.txt").write_text(orders(), encoding="utf-8")
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
        for _ in range(repeats):  # alternating, so a busy spell of the machine falls on both
            starts.append(_child_cpu(start, work))
            runs.append(_child_cpu(command, work))
    base, run = statistics.median(starts), statistics.median(runs)
    print(
        f"adjudicate naval [{shape}]: {len(data['islands'])} islands, {len(data['units'])} units, "
        f"{orders().count(chr(10)) + 1} orders, JSON out: {run:.2f} CPU-s, process start {base:.2f} CPU-s, "
        f"over the start {run - base:.2f} CPU-s (target {CLI_TARGET})",
        flush=True,
    )


def _cpu(action: Callable[..., object], *args: Any) -> tuple[float, Any]:
    began = time.process_time()
    value = action(*args)
    return time.process_time() - began, value


def _json(resolution: Any, report: Any) -> str:
    """The period's JSON as `adjudicate --format json` makes it: the report's result and the next
    state, compact (the C encoder)."""
    data = {**report.meta["result"], "state": naval.state_to_dict(resolution.state)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def period(shape: str, repeats: int = REPEATS) -> None:
    """Load / parse / resolve / report / JSON of the shape's 10,000-order period, CPU seconds,
    medians of `repeats`."""
    build, orders_of, _ = SHAPES[shape]
    figures: dict[str, list[float]] = {"load": [], "parse": [], "resolve": [], "report": [], "json": []}
    for _ in range(repeats):
        seconds, state = _cpu(naval.initial_state, build())
        figures["load"].append(seconds)
        seconds, orders = _cpu(parse_orders_file, orders_of())
        figures["parse"].append(seconds)
        seconds, resolution = _cpu(naval.resolve_period, state, orders, SeededSource(b"bench-naval" * 3))
        figures["resolve"].append(seconds)
        seconds, report = _cpu(build_report, resolution)
        figures["report"].append(seconds)
        seconds, text = _cpu(_json, resolution, report)
        figures["json"].append(seconds)
    counts: dict[str, int] = {}
    for result in resolution.results:
        counts[result.result] = counts.get(result.result, 0) + 1
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print(
        f"[{shape}] scenario: {len(state.islands)} islands, {len(state.units)} units, "
        f"loaded in {medians['load']:.3f} s"
    )
    print(f"[{shape}] parse:    {len(orders)} orders in {medians['parse']:.3f} s")
    print(f"[{shape}] resolve:  {len(resolution.results)} orders in {medians['resolve']:.3f} s  {counts}")
    print(f"[{shape}] report:   {len(report.plain.splitlines())} lines in {medians['report']:.3f} s")
    print(f"[{shape}] json:     {len(text) / 1e6:.1f} MB (compact) in {medians['json']:.3f} s")
    total = medians["parse"] + medians["resolve"] + medians["report"]
    print(
        f"[{shape}] period:   parse + resolve + report {total:.3f} s "
        f"(target {PERIOD_TARGET} s: {total / PERIOD_TARGET:.2f}× of it)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench naval")
    parser.add_argument("--shape", choices=sorted(SHAPES), action="append", help="a map shape (default: all)")
    parser.add_argument("--no-cli", action="store_true", help="the in-process phases only")
    args = parser.parse_args(argv or [])
    for shape in args.shape or list(SHAPES):
        period(shape)
        if not args.no_cli:
            adjudicate_cli(shape)


if __name__ == "__main__":
    main()
