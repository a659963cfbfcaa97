"""The import graph of threadgm's own modules, from the source (nothing is imported): which module
imports which, the cycles, and the longest chain from the entry point (`scheduler.py`) down.

A module's edges are the modules of ours it names in an import at the top level (what runs when it is
imported; imports inside functions and under `if TYPE_CHECKING:` run later or never). `from a.b import
c` names `a.b.c` when that is a module, else `a.b`. `python -m tests.architecture.import_graph` prints
the longest chain and the cycles.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scraper", "parser", "engine", "poster", "store", "board", "bot", "web", "cli")
ENTRY = "scheduler"


def module_files() -> dict[str, Path]:
    found = {ENTRY: ROOT / f"{ENTRY}.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements that run at import: the module's, and those of its top-level if/try blocks."""
    statements: list[ast.stmt] = []
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.If | ast.Try):
            pending[:0] = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                pending[:0] = handler.body
        statements.append(node)
    return statements


@cache
def graph(everywhere: bool = False) -> dict[str, set[str]]:
    """Module → the modules of ours it imports at import time (with `everywhere`: anywhere, inside
    functions and under `if TYPE_CHECKING:` too — what a reader follows)."""
    files = module_files()
    edges: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree) if everywhere else _top_level(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                names = [name if name in files else node.module for name in names]
            else:
                continue
            targets |= {name for name in names if name in files and name != module}
        edges[module] = targets
    return edges


def room(module: str) -> str:
    """The part of the house a module belongs to: a top-level package (`bot`, `web`, `cli`…), one of the
    engine's packages (`engine.clock`, `engine.referee`, `engine.rules` with every game…) or one of the
    engine's loose kernel modules (`engine.ruleset`…)."""
    parts = module.split(".")
    if parts[0] != "engine" or len(parts) == 1:
        return parts[0]
    return ".".join(parts[:2])


def rooms(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between rooms: an arrow where a module of one imports a module of another."""
    between: dict[str, set[str]] = {room(module): set() for module in edges}
    for module, targets in edges.items():
        between[room(module)] |= {room(target) for target in targets} - {room(module)}
    return between


def longest_chain(edges: dict[str, set[str]], start: str = ENTRY) -> list[str]:
    """The longest chain of imports from `start` (the graph must have no cycle)."""

    @cache
    def longest(module: str) -> tuple[str, ...]:
        below = [longest(target) for target in sorted(edges[module])]
        return (module, *max(below, key=len, default=()))

    return list(longest(start))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


if __name__ == "__main__":
    import sys

    sys.setrecursionlimit(10000)
    edges = graph()
    loops = cycles(edges)
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} import edges, {len(loops)} cycle(s)")
    for loop in loops:
        print("cycle:", " ↔ ".join(loop))
    everywhere = cycles(graph(everywhere=True))
    print(f"{len(everywhere)} cycle(s) counting imports inside functions and under TYPE_CHECKING")
    for loop in everywhere:
        print("cycle:", " ↔ ".join(loop))
    if not loops:
        chain = longest_chain(edges)
        print(f"longest chain from {ENTRY}: {len(chain)} modules")
        print("  " + "\n  → ".join(chain))
        between = rooms(edges)
        if not cycles(between):
            chain = longest_chain(between)
            print(f"longest chain of rooms from {ENTRY}: {len(chain)}: " + " → ".join(chain))
        else:
            print("rooms in a cycle:", cycles(between))
