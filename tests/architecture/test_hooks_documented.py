"""docs/architecture.md names every hook a game has — the core's, the two kinds', and each
capability's — so that the page cannot drift from `engine/ruleset/`; and the core stays small: the
base `Ruleset` declares at most twelve hooks (what a game overrides), the rest are capabilities a game
opts into by naming them among its bases."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from engine.ruleset import ClockedRuleset, ImmediateRuleset, Ruleset, capabilities

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
MAX_CORE_HOOKS = 12
CAPABILITIES = tuple(
    value
    for value in vars(capabilities).values()
    if inspect.isclass(value)
    and value.__module__ == capabilities.__name__
    and not dataclasses.is_dataclass(value)
)
SHAPES = (Ruleset, ClockedRuleset, ImmediateRuleset, *CAPABILITIES)


def _members(shape: type) -> list[str]:
    """The public methods and properties a class itself declares, final ones included."""
    return [
        name
        for name, value in vars(shape).items()
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))
    ]


def _hooks(shape: type) -> list[str]:
    """What a game may override: the public methods a class declares, less the final ones."""
    return [name for name in _members(shape) if not getattr(vars(shape)[name], "__final__", False)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: shape.__name__)
def test_every_hook_is_in_the_architecture_page(shape: type) -> None:
    missing = [name for name in _members(shape) if f"`{name}" not in DOCS]
    assert not missing, f"{shape.__name__}: {missing} not in docs/architecture.md"
    assert f"`{shape.__name__}`" in DOCS


def test_the_core_declares_at_most_twelve_hooks() -> None:
    hooks = _hooks(Ruleset)
    assert len(hooks) <= MAX_CORE_HOOKS, f"Ruleset declares {len(hooks)} hooks: {hooks}"


def test_the_walk_finds_the_hooks() -> None:
    assert {"initial_state", "owners", "check", "finished"} <= set(_hooks(Ruleset))
    assert {"may_act_for", "summary", "template"} <= set(_members(Ruleset)) - set(_hooks(Ruleset))
    assert _hooks(capabilities.Pictured) == ["picture"]
    assert {capabilities.Settable, capabilities.HoldsSeats, capabilities.OfflineForms} <= set(CAPABILITIES)
    assert capabilities.ThreadAudit not in CAPABILITIES


def test_every_capability_is_used_by_a_game_or_the_new_game_test() -> None:
    """A capability is a thing some game does: every one is among the bases of a registered game,
    except `AssumesOrders`, which no seed's game has yet and `tests/test_scheduler_periods.py` plays."""
    from engine.rules import REGISTRY

    used = {
        capability for ruleset in REGISTRY for capability in CAPABILITIES if isinstance(ruleset, capability)
    }
    assert set(CAPABILITIES) - used == {capabilities.AssumesOrders}
