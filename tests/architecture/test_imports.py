"""The import rules of docs/architecture.md, walked over every module: one direction of flow, a generic
engine that reaches the games only through the registry, the command line on top (no module below it
imports `cli/` or click), and the registry named by the composition root alone (`scheduler.py`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("scraper", "parser", "engine", "poster", "store", "board", "bot", "scheduler", "web", "cli")
# Which of our packages each folder may import (besides itself). Poster may use the engine's types only.
ALLOWED: dict[str, tuple[str, ...]] = {
    "scraper": (),
    "parser": (),
    "store": (),
    "board": (),
    "engine": ("parser", "store.records", "store.changes"),  # the store's rows and changes, as types
    "poster": ("scraper", "store", "engine.report"),
    "bot": ("scraper", "parser", "store", "engine", "poster", "web", "board.tripcode"),
    "web": ("scraper", "store", "engine", "poster", "board.server"),
    "cli": ("scraper", "parser", "store", "engine", "poster", "board", "bot", "web"),
}
# The packages under the command line: none imports click (a command turns their errors into click's).
NO_CLICK = ("scraper", "parser", "engine", "poster", "store", "bot", "web")
ENGINE_TYPES = ("store.records", "store.changes")  # what the engine may take from the store: types only
COMPOSITION_ROOT = "scheduler"
REGISTRY = "engine.rules.REGISTRY"


def _modules() -> list[Path]:
    return [
        ROOT / f"{COMPOSITION_ROOT}.py",
        *sorted(
            path
            for folder in ALLOWED
            for path in (ROOT / folder).rglob("*.py")
            if "__pycache__" not in path.parts
        ),
    ]


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, ours_only: bool = True) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):  # imports inside functions count as much as those at the top
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return [name for name in found if not ours_only or name.split(".")[0] in OURS]


def _game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["engine", "rules"] else None


def forbidden(module: str, imported: str) -> str | None:
    """Why `module` may not import `imported` (None: it may)."""
    layer = module.split(".")[0]
    target = imported.split(".")[0]
    if imported == REGISTRY or imported.startswith(REGISTRY + "."):
        return None if module == COMPOSITION_ROOT else f"only {COMPOSITION_ROOT}.py names {REGISTRY}"
    if target == "click" and layer in NO_CLICK:
        return f"{layer}/ is under the command line: it imports no click"
    if target not in OURS or layer == COMPOSITION_ROOT:
        return None
    if target == layer and layer != "engine":
        return None
    if layer == "engine":
        return _engine_rule(module, imported)
    if any(imported == allowed or imported.startswith(allowed + ".") for allowed in ALLOWED[layer]):
        return None
    return f"{layer}/ may import only {', '.join(ALLOWED[layer]) or 'nothing of ours'}"


def _engine_rule(module: str, imported: str) -> str | None:
    target = imported.split(".")[0]
    if any(imported == allowed or imported.startswith(allowed + ".") for allowed in ENGINE_TYPES):
        return None
    if target not in ("engine", "parser"):
        return "engine/ may import only parser/ and the store's records and changes (as types)"
    game, wanted = _game_of(module), _game_of(imported)
    if module == "engine.rules":
        return None  # the registry: the one place that names every game
    if wanted is None:
        return None
    if game is None:  # `engine.rules.REGISTRY` included: the registry is handed over by scheduler.py
        return f"the generic engine imports no game (engine.rules.{wanted})"
    if game != wanted:
        return f"a game imports no other game (engine.rules.{wanted})"
    return None


def test_the_rules_themselves() -> None:
    assert forbidden("engine.referee.game", "engine.rules.naval.state") is not None
    assert forbidden("engine.rules.naval.ruleset", "engine.rules.battle_royale.state") is not None
    assert forbidden("engine.rules.naval.ruleset", "engine.rules.naval.state") is None
    assert forbidden("engine.offline.verify", "poster.markup") is not None
    assert forbidden("poster.markup", "engine.report.Report") is None
    assert forbidden("poster.outbox", "engine.referee.poll") is not None
    assert forbidden("store.db", "engine.report") is not None
    assert forbidden("scraper.fetch", "parser.gm") is not None
    assert forbidden("engine.rules", "engine.rules.naval") is None
    assert forbidden("engine.offline.verify", "engine.rules.REGISTRY") is not None
    assert forbidden("bot.thread_bot", "engine.rules.REGISTRY") is not None
    assert forbidden("cli.main", "engine.rules.REGISTRY") is not None
    assert forbidden("scheduler", "engine.rules.REGISTRY") is None
    assert forbidden("bot.thread_bot", "cli.tools.read_text") is not None
    assert forbidden("web.history", "cli.web") is not None
    assert forbidden("engine.config", "click") is not None
    assert forbidden("web.app", "click.ClickException") is not None
    assert forbidden("cli.tools", "click") is None
    assert forbidden("cli.main", "bot.runner.Runner") is None
    assert forbidden("engine.referee.game", "json") is None
    assert forbidden("engine.referee.ledger", "store.records.OrderRecord") is None
    assert forbidden("engine.referee.ledger", "store.changes.Log") is None
    assert forbidden("engine.referee.ledger", "store.db.Store") is not None


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_imports_against_the_flow(path: Path) -> None:
    module = _name(path)
    found = _imports(path, ours_only=False)
    wrong = [f"{imported}: {why}" for imported in found if (why := forbidden(module, imported))]
    assert not wrong, f"{module}: " + "; ".join(wrong)
