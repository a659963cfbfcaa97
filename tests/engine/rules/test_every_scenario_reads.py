"""Every scenario the repository ships still reads, now that each game refuses a key it does not know:
the template `threadgm new` writes for each game, and every .toml of a game folder, tests/fixtures/<game>
and bench/ (a GM copies these; one refused would mean a key the reader forgot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules import REGISTRY

ROOT = Path(__file__).resolve().parents[3]
# The fixture that lists a mistake of every kind on purpose (tests/engine/rules/battle_royale).
BROKEN = {ROOT / "tests/fixtures/battle_royale/scenarios/broken.toml"}


def _game(path: Path) -> str | None:
    """The game a shipped scenario is for, by its folder (engine/rules/<game>, tests/fixtures/<game>)."""
    relative = path.relative_to(ROOT).parts
    folder = relative[2] if relative[:2] in (("engine", "rules"), ("tests", "fixtures")) else ""
    if folder == "web":  # the game page's tests read a naval war
        folder = "naval" if path.name.startswith("naval") else folder
    return {"battle_royale": "battle-royale"}.get(folder, folder) if folder in _FOLDERS else None


_FOLDERS = {"guess", "naval", "battle_royale", "dh", "nijiyabou", "dystopia", "dice"}
SHIPPED = sorted(
    path
    for base in ("engine/rules", "tests/fixtures", "bench")
    for path in (ROOT / base).rglob("*.toml")
    # tests/fixtures/battle_royale/*.toml at the top are golden step cases ([[case]]), not scenarios
    if path not in BROKEN and "[[case]]" not in path.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("ruleset_id", REGISTRY.ids())
def test_the_template_threadgm_new_writes_starts_a_game(ruleset_id: str) -> None:
    ruleset = REGISTRY.get(ruleset_id)
    text = ruleset.template()
    if text is None:
        pytest.skip(f"{ruleset_id} ships no template (threadgm new writes no scenario for it)")
    ruleset.initial_state(ruleset.read_scenario(text))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_shipped_scenario_starts_a_game(path: Path) -> None:
    game = _game(path)
    if game is None:
        pytest.skip("not a game's scenario")
    ruleset = REGISTRY.get(game)
    ruleset.initial_state(ruleset.read_scenario(path.read_text(encoding="utf-8")))


def test_the_shipped_scenarios_are_found() -> None:
    games = {_game(path) for path in SHIPPED}
    assert {"guess", "naval", "battle-royale", "dh", "nijiyabou", "dystopia"} <= games
