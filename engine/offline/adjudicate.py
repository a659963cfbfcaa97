"""The offline tools over any registered game, on the very functions the bot runs.

`adjudicate` resolves one period from a scenario (or a saved state), an ORDERS.txt and either the
published random numbers or a seed — through the game's `resolve`, author checks included — and
returns the next state, so that a GM can carry a game across periods (`--state` / `--save-state`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from engine.report import Report
from engine.rng import RandomSource, SeededSource
from engine.ruleset import (
    ClockedRuleset,
    ImmediateRuleset,
    Order,
    Ruleset,
    orders_file,
    randoms_file,
    result_data,
)


@dataclass(frozen=True)
class Adjudication:
    state: Any  # the state after the period
    report: Report  # what the game's report says (without the bot's key lines)
    data: dict[str, Any]  # the JSON form: the game's result, and the next state


def seeded_source(seed: int | None) -> RandomSource:
    """The random numbers of a preview without published ones: `sha256("adjudicate|SEED")` as the key."""
    return SeededSource(hashlib.sha256(f"adjudicate|{seed or 0}".encode()).digest())


def starting_state(ruleset: Ruleset, scenario_text: str | None, state_text: str | None) -> Any:
    """A saved state (`--state`, JSON as `--save-state` wrote it) or the scenario's initial state."""
    if state_text is not None:
        try:
            data = json.loads(state_text)
        except json.JSONDecodeError as error:
            raise ValueError(f"状態のJSONが読めません：{error}") from error
        return ruleset.state_from_dict(data.get("state", data) if isinstance(data, dict) else data)
    if scenario_text is None:
        raise ValueError("シナリオ（--scenario）か状態（--state）を指定してください")
    return ruleset.initial_state(ruleset.read_scenario(scenario_text))


def effective(ruleset: Ruleset, orders: list[Order]) -> list[Order]:
    """The orders that count, as in the thread: the last of each `order_key`, in posting order."""
    keys = [ruleset.order_key(order) for order in orders]  # once each: a period may have 10,000
    latest = {key: index for index, key in enumerate(keys)}
    return [
        order for index, (order, key) in enumerate(zip(orders, keys, strict=True)) if latest[key] == index
    ]


def adjudicate(
    ruleset: Ruleset,
    state: Any,
    orders_text: str,
    *,
    randoms_text: str | None = None,
    seed: int | None = None,
) -> Adjudication:
    """One period of `ruleset` from `state`: ValueError (Japanese) when the inputs cannot be used."""
    if not isinstance(ruleset, ClockedRuleset | ImmediateRuleset):
        raise ValueError(f"{ruleset.NAME} は一括処理できません")
    orders = effective(ruleset, orders_file(ruleset, state, orders_text))
    source = randoms_file(ruleset, state, randoms_text) if randoms_text is not None else seeded_source(seed)
    new_state, outcome = ruleset.resolve(state, orders, source)
    data = result_data(outcome)
    data["state"] = ruleset.state_to_dict(new_state)
    return Adjudication(new_state, outcome, data)
