"""The bench of issue 15: the time to resolve one season (report included) with all 47 countries
sending orders for every area — a command and the 編成 / 救援 designations each — on the packaged
scenario. `python -m bench nijiyabou` prints the median and the worst."""

from __future__ import annotations

import statistics
import time

from engine.rng import SeededSource
from engine.rules.nijiyabou.grammar import parse_line
from engine.rules.nijiyabou.ruleset import RULESET
from engine.rules.nijiyabou.state import State
from engine.ruleset import Order, OrderText

COMMANDS = ("出陣", "徴兵 足軽1000", "内政", "配信")


def full_orders(state: State) -> list[Order]:
    """Every area's lord writes a command (one area in four sorties on its first neighbour) and both
    designations."""
    lines = []
    for index, (area, where) in enumerate(state.areas.items()):
        lord = state.livers[where.owner or ""].name
        command = COMMANDS[index % len(COMMANDS)]
        near = state.neighbours(area)
        if command == "出陣":
            command = f"出陣 {near[0]}" if near else "内政"
        lines += [f"{area}：{command}", f"{area}：編成 {lord}(足軽)", f"{area}：救援 {lord}"]
    orders = []
    for number, text in enumerate(lines, start=1):
        parsed = parse_line(text)
        assert isinstance(parsed, OrderText), text
        orders.append(Order(number, 0, "bench", "bench", parsed.command, parsed.canonical, gm=True))
    return orders


def season_seconds(repeats: int = 20) -> list[float]:
    state = RULESET.initial_state({})
    orders = full_orders(state)
    times = []
    for repeat in range(repeats):
        started = time.perf_counter()
        RULESET.resolve(state, orders, SeededSource(repeat.to_bytes(32, "big")))
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    times = season_seconds(20)
    count = len(full_orders(RULESET.initial_state({})))
    print(
        f"nijiyabou: one season, 47 countries, {count} orders (every area): "
        f"median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms ({len(times)} runs)"
    )
