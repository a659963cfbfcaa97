"""Hex geometry of the naval map: 箱庭諸島's own coordinates, distances in hexes, and straight routes.

Coordinates are 箱庭's `(x, y)`: 0-based column and row of a hex map drawn with pointy tops, every even
row pushed half a hex to the right (what redblobgames calls "even-r" offset coordinates). So the hex
`(x, y)` of an even row touches `(x, y-1)` and `(x+1, y-1)` above it, an odd row touches `(x-1, y-1)`
and `(x, y-1)`, exactly as 箱庭's neighbour tables do. Distances and lines are computed in cube
coordinates, where they are simple.
"""

from __future__ import annotations

Hex = tuple[int, int]


def to_cube(hex_: Hex) -> tuple[int, int, int]:
    x, y = hex_
    q = x - (y + (y & 1)) // 2
    return q, y, -q - y


def from_cube(q: int, r: int) -> Hex:
    return q + (r + (r & 1)) // 2, r


def distance(a: Hex, b: Hex) -> int:
    """Hexes between two hexes (0 for the same hex, 1 for neighbours)."""
    aq, ar, as_ = to_cube(a)
    bq, br, bs = to_cube(b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


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

    A tiny nudge keeps points that fall exactly on a hex edge on one consistent side."""
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar, _ = to_cube(a)
    bq, br, _ = to_cube(b)
    eps_q, eps_r = 1e-6, 2e-6
    route: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        q, r = _cube_round(aq + eps_q + (bq - aq) * t, ar + eps_r + (br - ar) * t)
        route.append(from_cube(q, r))
    return route


def within(center: Hex, hexes: list[Hex], reach: int) -> bool:
    """Whether any of the hexes lies within `reach` hexes of `center`."""
    return any(distance(center, h) <= reach for h in hexes)


def shown(hex_: Hex | None) -> str:
    """A hex as the reports write it: `(x,y)`, or `(?)` when unknown."""
    return "(?)" if hex_ is None else f"({hex_[0]},{hex_[1]})"
