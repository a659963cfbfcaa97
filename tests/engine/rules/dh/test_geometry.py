"""The map's geometry: squares, moves with diagonals costing 2, walls and ZoC, and range shapes."""

from __future__ import annotations

import pytest

from engine.rules.dh.geometry import Grid, in_range, normalize_square, parse_range, plan_move

GRID = Grid("ABCDE", 7, frozenset({"A4", "C4", "E4"}))


@pytest.mark.parametrize(
    ("text", "square"), [("C4", "C4"), ("Ｃ４", "C4"), ("c4", "C4"), (" e7 ", "E7"), ("4C", None)]
)
def test_square_names_full_or_half_width(text: str, square: str | None) -> None:
    assert normalize_square(text) == square


def test_the_map_and_its_walls() -> None:
    assert len(GRID.squares()) == 35
    assert GRID.contains("C4") and not GRID.open("C4") and GRID.open("B4") and not GRID.contains("F1")


def test_moves_of_up_to_two_squares() -> None:
    none = frozenset()
    assert plan_move(GRID, "C1", "C3", 2, none).path == ("C1", "C2", "C3")
    assert plan_move(GRID, "C1", "D2", 2, none).cost == 2  # a diagonal is two steps
    assert plan_move(GRID, "C1", "C4", 3, none) is None  # a wall
    assert plan_move(GRID, "B3", "B5", 2, none).path == ("B3", "B4", "B5")
    assert plan_move(GRID, "C3", "C5", 2, none) is None  # around the wall is 4 steps
    assert plan_move(GRID, "C3", "C5", 4, none).cost == 4
    assert plan_move(GRID, "C1", "C1", 0, none).cost == 0


def test_zoc_stops_a_move_on_the_first_enemy_square_unless_another_path_is_clear() -> None:
    stopped = plan_move(GRID, "C1", "C3", 2, frozenset({"C2"}))
    assert stopped.path == ("C1", "C2") and stopped.zoc_stop
    clear = plan_move(GRID, "C1", "D2", 2, frozenset({"C2"}))
    assert clear.path == ("C1", "D1", "D2") and not clear.zoc_stop
    assert plan_move(GRID, "C1", "C3", 2, frozenset({"C2"}), zoc=False).end == "C3"
    assert plan_move(GRID, "C1", "C3", 2, frozenset({"C2"}), zoc_cancels=True) is None


def test_range_shapes() -> None:
    cross = {s for s in GRID.squares() if in_range(GRID, "B2", s, ("隣接", 1))}
    assert cross == {"A2", "C2", "B1", "B3", "B2"}
    diamond = {s for s in GRID.squares() if in_range(GRID, "B2", s, ("半径", 1))}
    assert diamond == cross
    block = {s for s in GRID.squares() if in_range(GRID, "B3", s, ("周囲", 1))}
    assert block == {"A2", "A3", "B2", "B3", "B4", "C2", "C3"}  # walls A4 and C4 are outside every range
    assert in_range(GRID, "A1", "E7", ("全体", 0)) and not in_range(GRID, "A1", "C4", ("全体", 0))
    assert in_range(GRID, "B2", "B4", ("隣接", 2)) and not in_range(GRID, "B2", "C3", ("隣接", 2))
    assert in_range(GRID, "B2", "C3", ("半径", 2))


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("同マス", ("同マス", 0)),
        ("隣接1", ("隣接", 1)),
        ("半径2マス", ("半径", 2)),
        ("周囲１", ("周囲", 1)),
        ("MAP全体", ("全体", 0)),
        ("遠く", None),
    ],
)
def test_range_names(text: str, shape: tuple[str, int] | None) -> None:
    assert parse_range(text) == shape


def _every_path(grid: Grid, start: str, goal: str, length: int):
    """Every orthogonal walk of exactly `length` steps from start to goal, in the order tried (縦→横):
    the definition `plan_move` must agree with, spelled out by brute force."""
    from engine.rules.dh.geometry import neighbours

    stack = [(start,)]
    while stack:
        path = stack.pop()
        if len(path) - 1 == length:
            if path[-1] == goal:
                yield path
            continue
        stack += [(*path, step) for step in reversed(neighbours(grid, path[-1]))]


def _reference(grid: Grid, start: str, goal: str, points: int, enemies: frozenset[str], zoc_cancels: bool):
    if goal == start:
        return (start,), False
    if not grid.open(goal):
        return None
    blocked = None
    for length in range(1, points + 1):
        for path in _every_path(grid, start, goal, length):
            cut = next((path[: i + 1] for i, s in enumerate(path[1:-1], start=1) if s in enemies), None)
            if cut is None:
                return path, False
            blocked = blocked or cut
    return None if blocked is None or zoc_cancels else (blocked, True)


def test_the_move_is_the_first_shortest_clear_path_as_every_path_tried_in_order_finds() -> None:
    import random

    chance = random.Random(4)
    squares = GRID.squares()
    for _ in range(400):
        start, goal = chance.choice(squares), chance.choice(squares)
        if not GRID.open(start):
            continue
        enemies = frozenset(chance.sample(squares, chance.randint(0, 6)))
        points, cancels = chance.randint(0, 5), chance.random() < 0.3
        planned = plan_move(GRID, start, goal, points, enemies, zoc_cancels=cancels)
        want = _reference(GRID, start, goal, points, enemies, cancels)
        assert (None if planned is None else (planned.path, planned.zoc_stop)) == want, (start, goal, enemies)


def test_a_long_move_looks_at_each_square_a_few_times_not_at_every_path(monkeypatch) -> None:
    """A 移動力 of 12 tried every walk (4^12 of them: most of a second per line, seconds per post);
    the search now visits each square once, whatever the 移動力."""
    from engine.rules.dh import geometry

    calls = []
    real = geometry.neighbours
    monkeypatch.setattr(
        geometry, "neighbours", lambda grid, square: calls.append(square) or real(grid, square)
    )
    enemies = frozenset({"B2", "C3", "B3", "D3", "D2"})
    moved = plan_move(GRID, "C1", "C7", 10, enemies)
    assert moved is not None and moved.zoc_stop and moved.path == ("C1", "B1", "B2")
    assert plan_move(GRID, "C1", "C7", 40, frozenset()).cost == 8  # round the wall at C4
    assert len(calls) <= 3 * len(GRID.squares())
