"""The registered games by id (`Registry`): the one list the configuration check, the bot and the tools
read, handed down by the composition root."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable

from engine.ruleset.base import Ruleset


class Registry:
    """The games by id, as the configuration names them; the one list every tool reads.

    An entry is a Ruleset, or `(id, "package.module:ATTRIBUTE")` for one imported the first time it is
    asked for: a command that uses one game (`threadgm help naval`) loads that game alone, and one
    that uses none (`threadgm roll`) loads none. Walking the registry (`for ruleset in registry`,
    `by_name`) loads them all."""

    def __init__(self, rulesets: Iterable[Ruleset | tuple[str, str]] = ()) -> None:
        self._rulesets: dict[str, Ruleset | str] = {}  # a str: where the ruleset is, not yet loaded
        self._loading = threading.Lock()
        for ruleset in rulesets:
            self.add(ruleset)

    def add(self, ruleset: Ruleset | tuple[str, str]) -> Ruleset | tuple[str, str]:
        ruleset_id = ruleset[0] if isinstance(ruleset, tuple) else ruleset.ID
        if ruleset_id in self._rulesets:
            raise ValueError(f"ruleset id {ruleset_id!r} is registered twice")
        self._rulesets[ruleset_id] = ruleset[1] if isinstance(ruleset, tuple) else ruleset
        return ruleset

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            entry = self._rulesets[ruleset_id]
        except KeyError:
            raise KeyError(
                f"ルール {ruleset_id!r} はありません（使えるもの: {', '.join(self.ids())}）"
            ) from None
        return entry if not isinstance(entry, str) else self._load(ruleset_id)

    def _load(self, ruleset_id: str) -> Ruleset:
        with self._loading:
            entry = self._rulesets[ruleset_id]
            if not isinstance(entry, str):
                return entry  # another thread loaded it meanwhile
            module, _, attribute = entry.partition(":")
            ruleset = getattr(importlib.import_module(module), attribute)
            if ruleset_id != ruleset.ID:
                raise ValueError(f"{entry} is the ruleset {ruleset.ID!r}, registered as {ruleset_id!r}")
            self._rulesets[ruleset_id] = ruleset
            return ruleset

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in self._rulesets

    def __iter__(self):
        return iter([self.get(ruleset_id) for ruleset_id in self.ids()])

    def ids(self) -> list[str]:
        return list(self._rulesets)

    def by_name(self, name: str) -> Ruleset | None:
        """The game an opening post 【NAME 開始】 names."""
        return next((ruleset for ruleset in self if name == ruleset.NAME), None)
