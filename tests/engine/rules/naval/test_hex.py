"""Hex geometry in 箱庭's coordinates: neighbours as 箱庭's tables have them, distances, routes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.naval.hexgrid import _cube_round, distance, from_cube, line, neighbours, to_cube, within
from engine.rules.naval.state import MAX_MAP

# 箱庭諸島's neighbour rule: an even row sits half a hex to the right of the odd rows around it.
HAKONIWA_EVEN = {(1, 2), (3, 2), (2, 1), (3, 1), (2, 3), (3, 3)}  # around (2, 2)
HAKONIWA_ODD = {(1, 3), (3, 3), (1, 2), (2, 2), (1, 4), (2, 4)}  # around (2, 3)


def test_neighbours_follow_hakoniwa_rows() -> None:
    assert set(neighbours((2, 2))) == HAKONIWA_EVEN
    assert set(neighbours((2, 3))) == HAKONIWA_ODD
    assert all(distance((2, 2), h) == 1 for h in HAKONIWA_EVEN)
    assert distance((2, 3), (3, 2)) == 2


def test_distance_is_a_metric_on_a_small_map() -> None:
    cells = [(x, y) for x in range(6) for y in range(6)]
    for a, b in itertools.product(cells, repeat=2):
        assert distance(a, b) == distance(b, a)
        assert (distance(a, b) == 0) == (a == b)
    for a, b, c in itertools.product(cells[:12], cells[10:22], cells[20:32]):
        assert distance(a, c) <= distance(a, b) + distance(b, c)


@pytest.mark.parametrize(
    ("a", "b", "hexes"), [((0, 0), (4, 0), 4), ((0, 0), (5, 0), 5), ((0, 0), (2, 4), 4), ((0, 0), (0, 4), 4)]
)
def test_distances_in_hexes(a: tuple[int, int], b: tuple[int, int], hexes: int) -> None:
    assert distance(a, b) == hexes


def test_a_route_is_contiguous_and_as_long_as_the_distance() -> None:
    for a, b in [((14, 3), (10, 3)), ((0, 0), (7, 5)), ((7, 4), (7, 8)), ((3, 3), (3, 3))]:
        route = line(a, b)
        assert route[0] == a and route[-1] == b
        assert len(route) == distance(a, b) + 1
        assert all(distance(p, q) == 1 for p, q in itertools.pairwise(route))


def test_within_reach_of_any_hex_on_a_route() -> None:
    route = line((14, 3), (10, 3))
    assert within((9, 3), route, 4)
    assert not within((1, 3), route, 4)
    assert within((5, 3), route, 5)


def _line_as_first_written(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The route computed point by point from `a` (the code before routes were moved from a cache)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar, _ = to_cube(a)
    bq, br, _ = to_cube(b)
    route = []
    for i in range(n + 1):
        t = i / n
        q, r = _cube_round(aq + 1e-6 + (bq - aq) * t, ar + 2e-6 + (br - ar) * t)
        route.append(from_cube(q, r))
    return route


def _cube_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    (aq, ar, as_), (bq, br, bs) = to_cube(a), to_cube(b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


_ON_THE_MAP = st.tuples(st.integers(0, MAX_MAP - 1), st.integers(0, MAX_MAP - 1))
_NEAR = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


@settings(max_examples=300, deadline=None)
@given(_ON_THE_MAP, st.one_of(_ON_THE_MAP, _NEAR))
def test_a_route_moved_from_its_offsets_is_the_route_computed_from_its_start(
    a: tuple[int, int], b: tuple[int, int]
) -> None:
    if -12 <= b[0] <= 12 and -12 <= b[1] <= 12:  # a short flight: what a period mostly has
        b = (min(max(a[0] + b[0], 0), MAX_MAP - 1), min(max(a[1] + b[1], 0), MAX_MAP - 1))
    assert distance(a, b) == _cube_distance(a, b)
    assert line(a, b) == _line_as_first_written(a, b)
