"""Hex geometry of the naval map: 箱庭諸島's own coordinates, distances in hexes, and straight routes.

Coordinates are 箱庭's `(x, y)`: 0-based column and row of a hex map drawn with pointy tops, every even
row pushed half a hex to the right (what redblobgames calls "even-r" offset coordinates). So the hex
`(x, y)` of an even row touches `(x, y-1)` and `(x+1, y-1)` above it, an odd row touches `(x-1, y-1)`
and `(x, y-1)`, exactly as 箱庭's neighbour tables do. Distances and lines are computed in cube
coordinates, where they are simple.
"""

from __future__ import annotations

import functools

Hex = tuple[int, int]


def to_cube(hex_: Hex) -> tuple[int, int, int]:
    x, y = hex_
    q = x - (y + (y & 1)) // 2
    return q, y, -q - y


def from_cube(q: int, r: int) -> Hex:
    return q + (r + (r & 1)) // 2, r


def distance(a: Hex, b: Hex) -> int:
    """Hexes between two hexes (0 for the same hex, 1 for neighbours): the cube distance, written out
    (a period measures thousands)."""
    (ax, ay), (bx, by) = a, b
    dq = ax - (ay + (ay & 1)) // 2 - bx + (by + (by & 1)) // 2
    dr = ay - by
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(hex_: Hex) -> list[Hex]:
    q, r, _ = to_cube(hex_)
    return [from_cube(q + dq, r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))]


def _cube_round(q: float, r: float) -> tuple[int, int]:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight flight from a to b passes over, both ends included.

    A tiny nudge keeps points that fall exactly on a hex edge on one consistent side. The route is
    the same wherever it starts, in cube coordinates: the nudge (1e-6) is far from every rounding
    edge (at least 1/(2n) away for a route of n hexes) and far above the float error of a start up to
    MAX_MAP, so the steps are computed once per (dq, dr) and moved to `a`."""
    aq, ar, _ = to_cube(a)
    bq, br, _ = to_cube(b)
    return [from_cube(aq + q, ar + r) for q, r in _steps(bq - aq, br - ar)]


@functools.lru_cache(maxsize=4096)
def _steps(dq: int, dr: int) -> tuple[tuple[int, int], ...]:
    """The cube offsets of the straight route from (0, 0) by (dq, dr)."""
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return ((0, 0),)
    eps_q, eps_r = 1e-6, 2e-6
    return tuple(_cube_round(eps_q + dq * t, eps_r + dr * t) for t in (i / n for i in range(n + 1)))


def within(center: Hex, hexes: list[Hex], reach: int) -> bool:
    """Whether any of the hexes lies within `reach` hexes of `center`."""
    return any(distance(center, h) <= reach for h in hexes)


def shown(hex_: Hex | None) -> str:
    """A hex as the reports write it: `(x,y)`, or `(?)` when unknown."""
    return "(?)" if hex_ is None else f"({hex_[0]},{hex_[1]})"
