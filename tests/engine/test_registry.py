"""The registry of games: an entry named by where it lives is imported when first asked for, checked
to be the game it is registered as, and listed in registration order like the others."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules.dice import RULESET as DICE
from engine.ruleset import Registry

ROOT = Path(__file__).resolve().parents[2]


def test_a_lazy_entry_is_imported_on_first_use_only() -> None:
    script = (
        "import sys\n"
        "from engine.ruleset import Registry\n"
        "r = Registry([('guess', 'engine.rules.guess:RULESET'), ('naval', 'engine.rules.naval:RULESET')])\n"
        "assert 'naval' in r and r.ids() == ['guess', 'naval']\n"
        "assert not any(m.startswith('engine.rules.') for m in sys.modules)\n"
        "assert r.get('naval').ID == 'naval' and r.get('naval') is r.get('naval')\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('engine.rules.')}))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['naval']"


def test_walking_the_registry_loads_every_entry_in_order() -> None:
    registry = Registry(
        [("naval", "engine.rules.naval:RULESET"), DICE, ("guess", "engine.rules.guess:RULESET")]
    )
    assert [ruleset.ID for ruleset in registry] == ["naval", "dice", "guess"]
    assert registry.by_name(DICE.NAME) is DICE


def test_an_entry_that_is_another_game_is_refused() -> None:
    registry = Registry([("naval", "engine.rules.guess:RULESET")])
    with pytest.raises(ValueError, match="registered as 'naval'"):
        registry.get("naval")


def test_an_id_twice_is_refused_lazy_or_not() -> None:
    with pytest.raises(ValueError, match="twice"):
        Registry([DICE, ("dice", "engine.rules.dice:RULESET")])
    with pytest.raises(KeyError, match="ありません"):
        Registry([DICE]).get("naval")
