"""docs/architecture.md names every hook a game has — the core's, the two kinds', and each
capability's — so that the page cannot drift from `engine/ruleset/`."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from engine.ruleset import (
    AuditsPosts,
    ClockedRuleset,
    ImmediateRuleset,
    ImportsCharacters,
    Pictured,
    ReplaysThread,
    Ruleset,
    Simulates,
    VerifiesPeriods,
)

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
SHAPES = (Ruleset, ClockedRuleset, ImmediateRuleset, Pictured, Simulates, VerifiesPeriods, AuditsPosts)
SHAPES += (ReplaysThread, ImportsCharacters)


def _hooks(shape: type) -> list[str]:
    own = vars(shape)
    return [
        name
        for name, value in own.items()
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))
    ]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: shape.__name__)
def test_every_hook_is_in_the_architecture_page(shape: type) -> None:
    missing = [name for name in _hooks(shape) if f"`{name}" not in DOCS]
    assert not missing, f"{shape.__name__}: {missing} not in docs/architecture.md"
    assert f"`{shape.__name__}`" in DOCS


def test_the_walk_finds_the_hooks() -> None:
    assert {"initial_state", "owners", "may_act_for"} <= set(_hooks(Ruleset))
    assert _hooks(Pictured) == ["picture"]
