"""The DH map's geometry: squares named like `C4` (rows A–E × columns 1–7 by default), walls, the
move of one character (2 squares, a diagonal costing 2, walls impassable, ZoC) and the range shapes
of powers (同マス, 隣接n, 半径n, 周囲n, MAP全体). Pure functions over a `Grid`.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass

import regex

_SQUARE = regex.compile(
    r"^([A-Za-z])([0-9]{1,3})$"
)  # ASCII digits only (\d takes ٣ too); B100: off every map
_RANGE = regex.compile(r"^(同マス|MAP全体|全体|自分|(隣接|半径|周囲)(\d+)(?:マス)?)$")
# Orthogonal steps in the order a path is tried: up, down, left, right (縦→横).
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class Grid:
    rows: str  # the row letters, top to bottom: "ABCDE"
    columns: int
    walls: frozenset[str]

    def contains(self, square: str) -> bool:
        return split(square) is not None and _on(self, square)

    def open(self, square: str) -> bool:
        """On the map and not a wall: a character may stand here."""
        return self.contains(square) and square not in self.walls

    def squares(self) -> list[str]:
        return [f"{row}{column}" for row in self.rows for column in range(1, self.columns + 1)]

    def coordinates(self, square: str) -> tuple[int, int]:
        parts = split(square)
        assert parts is not None, square
        return self.rows.index(parts[0]), parts[1] - 1

    def name(self, row: int, column: int) -> str | None:
        if 0 <= row < len(self.rows) and 0 <= column < self.columns:
            return f"{self.rows[row]}{column + 1}"
        return None


def normalize_square(text: str) -> str | None:
    """`Ｃ４`, `c4`, `C4` → `C4`; None when the text is not a square's name."""
    match = _SQUARE.match(unicodedata.normalize("NFKC", text).strip())
    if match is None:
        return None
    return f"{match[1].upper()}{int(match[2])}"


def split(square: str) -> tuple[str, int] | None:
    match = _SQUARE.match(square)
    return (match[1], int(match[2])) if match else None


def _on(grid: Grid, square: str) -> bool:
    parts = split(square)
    return parts is not None and parts[0] in grid.rows and 1 <= parts[1] <= grid.columns


def neighbours(grid: Grid, square: str) -> list[str]:
    """The open squares one orthogonal step away, in the order paths try them."""
    row, column = grid.coordinates(square)
    found = []
    for dr, dc in _STEPS:
        name = grid.name(row + dr, column + dc)
        if name is not None and name not in grid.walls:
            found.append(name)
    return found


def distances(grid: Grid, start: str, limit: int | None = None) -> dict[str, int]:
    """Orthogonal steps from `start` to every open square reachable within `limit` (walls block)."""
    seen, frontier = {start: 0}, [start]
    while frontier:
        here = frontier.pop(0)
        if limit is not None and seen[here] == limit:
            continue
        for step in neighbours(grid, here):
            if step not in seen:
                seen[step] = seen[here] + 1
                frontier.append(step)
    return seen


def manhattan(grid: Grid, a: str, b: str) -> int:
    (r1, c1), (r2, c2) = grid.coordinates(a), grid.coordinates(b)
    return abs(r1 - r2) + abs(c1 - c2)


def chebyshev(grid: Grid, a: str, b: str) -> int:
    (r1, c1), (r2, c2) = grid.coordinates(a), grid.coordinates(b)
    return max(abs(r1 - r2), abs(c1 - c2))


@dataclass(frozen=True)
class Move:
    """Where a move ends: the squares walked (the start first), and whether ZoC stopped it early."""

    path: tuple[str, ...]
    zoc_stop: bool = False

    @property
    def end(self) -> str:
        return self.path[-1]

    @property
    def cost(self) -> int:
        return len(self.path) - 1


def shortest_path(
    grid: Grid, start: str, goal: str, limit: int, barred: frozenset[str] = frozenset()
) -> tuple[str, ...] | None:
    """The first shortest orthogonal path from `start` to `goal` of at most `limit` steps over open
    squares, passing through no square of `barred` (the goal itself may be one), or None.

    "First" is the order paths are tried in (up, down, left, right at every step): a breadth-first
    search that expands neighbours in that order and keeps the first parent found yields, for every
    square, the earliest of its shortest paths in that order. Linear in the squares, whatever the
    移動力 — enumerating every path grows as 4^steps (a 移動力 of 12 took most of a second a line)."""
    parent: dict[str, str | None] = {start: None}
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        if steps[here] == limit or (here != start and here in barred):
            continue
        for step in neighbours(grid, here):
            if step not in parent:
                parent[step], steps[step] = here, steps[here] + 1
                queue.append(step)
    if goal not in parent:
        return None
    path = [goal]
    while (previous := parent[path[-1]]) is not None:
        path.append(previous)
    return tuple(reversed(path))


def _zoc_cut(path: tuple[str, ...], enemies: frozenset[str]) -> tuple[str, ...] | None:
    """The path cut where it first enters an enemy's square before its end (None: it never does)."""
    for index, square in enumerate(path[1:-1], start=1):
        if square in enemies:
            return path[: index + 1]
    return None


def plan_move(
    grid: Grid,
    start: str,
    goal: str,
    points: int,
    enemies: frozenset[str],
    *,
    zoc: bool = True,
    zoc_cancels: bool = False,
) -> Move | None:
    """The move from `start` to `goal` with `points` orthogonal steps (a diagonal is two), or None when
    the goal cannot be reached (the action is cancelled). The shortest path that enters no enemy's square
    before the goal is taken; when every path does, the move stops on the first enemy's square of the
    first path (ZoC) — or is cancelled when `zoc_cancels`."""
    if goal == start:
        return Move((start,))
    if not grid.open(goal):
        return None
    clear = shortest_path(grid, start, goal, points, enemies if zoc else frozenset())
    if clear is not None:
        return Move(clear)
    through = shortest_path(grid, start, goal, points) if zoc else None
    if through is None or zoc_cancels:
        return None
    cut = _zoc_cut(through, enemies)
    assert cut is not None  # a clear path of that length would have been found above
    return Move(cut, zoc_stop=True)


def parse_range(text: str) -> tuple[str, int] | None:
    """A range shape as the scenario writes it: (`同マス`|`隣接`|`半径`|`周囲`|`全体`|`自分`, n)."""
    match = _RANGE.match(unicodedata.normalize("NFKC", text).strip())
    if match is None:
        return None
    if match[2]:
        return match[2], int(match[3])
    word = match[1]
    return ("全体" if word in ("MAP全体", "全体") else word), 0


def in_range(grid: Grid, centre: str, square: str, shape: tuple[str, int]) -> bool:
    """Whether `square` lies in the range `shape` around `centre` (walls never do). 隣接n: the four
    straight lines up to n squares; 半径n: up to n orthogonal steps (a diagonal is two); 周囲n: the
    block of squares up to n away in every direction, diagonals included."""
    if not grid.open(square):
        return False
    kind, n = shape
    if kind in ("同マス", "自分"):
        return square == centre
    if kind == "全体":
        return True
    if kind == "隣接":
        (r1, c1), (r2, c2) = grid.coordinates(centre), grid.coordinates(square)
        return (r1 == r2 or c1 == c2) and manhattan(grid, centre, square) <= n
    if kind == "半径":
        return manhattan(grid, centre, square) <= n
    return chebyshev(grid, centre, square) <= n
