"""The one check every game's scenario reader makes of a table's keys: a key the game does not read is
refused by name (a GM's typo would otherwise run the game on the default), with 「…のことですか？」 for a
close one; and a GM's value quoted back in a message as the scenario's TOML writes it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any


def as_written(value: Any) -> str:
    """A scenario value as TOML writes it (true, "十", 2.5, [1, 2], { a = 1 }): what the GM typed, for a
    message that quotes it (Python's repr would show True and '十')."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(as_written(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{key} = {as_written(item)}" for key, item in value.items()) + " }"
    return str(value)


def close_to(word: str, choices: Iterable[str]) -> str:
    """The choice closest to a misspelt `word` (difflib's ratio ≥ 0.7), or "" when none is close."""
    import difflib  # for a mistake's hint only

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    return close[0] if close else ""


def table_of(value: Any) -> Mapping[str, Any]:
    """A scenario's table, or nothing to check of its keys when it is not one (its reader says why)."""
    return value if isinstance(value, Mapping) else {}


def tables_of(value: Any) -> list[Mapping[str, Any]]:
    """The tables of an array of tables (`[[areas]]`), leaving out what is not one (as `table_of`)."""
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list | tuple) else []


def unknown_keys(table: Any, known: Iterable[str], where: str = "シナリオ") -> list[str]:
    """One Japanese message for each key of `table` that is not `known` (empty when all are, or when
    `table` is no table: see `table_of`)."""
    table = table_of(table)
    names = sorted(known)
    problems = []
    for key in table:
        if key in names:
            continue
        close = close_to(str(key), names)
        hint = f"「{close}」のことですか？ " if close else ""
        usable = f"使えるのは {'、'.join(names)}" if names else "書ける項目はありません"
        problems.append(f"{where}に知らない項目「{key}」があります（{hint}{usable}）")
    return problems
