"""Table-top geometry, the one every plane ruleset uses (DESIGN.md "Units").

Positions are `[x, y]` in hundredths of an inch, facings whole degrees, 0 = +x, counter-clockwise.
Computation is in floats; anything that goes into an event is rounded to whole hundredths
(`rounded`, `round_half_up`) or whole degrees (`facing_toward`) first, always half up, so a result
never depends on banker's rounding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Point = Sequence[float]


def is_point(p: Any) -> bool:
    """Whether `p` is a position as events carry it: a list of two integers."""
    return (
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
    )


def round_half_up(value: float) -> int:
    """Nearest integer, halves up."""
    return math.floor(value + 0.5)


def rounded(point: Point) -> list[int]:
    """A computed position as event data: whole hundredths."""
    return [round_half_up(point[0]), round_half_up(point[1])]


def distance(a: Point, b: Point) -> float:
    """Centre-to-centre distance."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def base_gap(a: Point, ra: float, b: Point, rb: float) -> float:
    """Gap between two round bases, edge to edge (negative when they overlap)."""
    return distance(a, b) - ra - rb


def bearing(frm: Point, to: Point) -> float:
    """Direction from `frm` to `to` in degrees, in [0, 360) (0 when they coincide)."""
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0])) % 360.0


def facing_toward(frm: Point, to: Point) -> int:
    """The whole-degree facing that looks from `frm` at `to` (0 when they coincide)."""
    return round_half_up(bearing(frm, to)) % 360


def relative_bearing(frm: Point, facing: float, to: Point) -> float:
    """Where `to` lies from a figure at `frm` facing `facing`: degrees in [-180, 180), positive to its left."""
    return (bearing(frm, to) - facing + 180.0) % 360.0 - 180.0


def angle_between(f1: int, f2: int) -> int:
    """The smaller angle between two whole-degree facings, 0-180."""
    d = abs(f1 - f2) % 360
    return min(d, 360 - d)


def step_toward(frm: Point, to: Point, length: float) -> list[float]:
    """The point `length` along the straight line from `frm` toward `to` (past it if longer)."""
    d = distance(frm, to)
    if d == 0:
        return [float(frm[0]), float(frm[1])]
    return [frm[0] + (to[0] - frm[0]) * length / d, frm[1] + (to[1] - frm[1]) * length / d]


def step_away(frm: Point, away_from: Point, length: float) -> list[float]:
    """The point `length` from `frm` directly away from `away_from`; `frm` itself when they coincide
    (there is no "away": a ruleset that needs a direction then says which)."""
    d = distance(away_from, frm)
    if d == 0:
        return [float(frm[0]), float(frm[1])]
    return [frm[0] + (frm[0] - away_from[0]) * length / d, frm[1] + (frm[1] - away_from[1]) * length / d]


def centroid(points: Sequence[Point]) -> list[float]:
    """The mean of some points."""
    n = len(points)
    return [sum(p[0] for p in points) / n, sum(p[1] for p in points) / n]


def path_length(points: Sequence[Point]) -> float:
    """Length of a polyline through `points` in order."""
    return sum(distance(points[i], points[i + 1]) for i in range(len(points) - 1))


def along_path(points: Sequence[Point], length: float) -> list[float]:
    """The point `length` along a polyline (its end if the polyline is shorter)."""
    left = length
    for i in range(len(points) - 1):
        seg = distance(points[i], points[i + 1])
        if left <= seg:
            return step_toward(points[i], points[i + 1], left)
        left -= seg
    return [float(points[-1][0]), float(points[-1][1])]


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """Closest approach of the segment a-b to the point p."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    dx, dy = bx - ax, by - ay
    if dx == 0 and dy == 0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def crosses(a: Point, b: Point, others: Sequence[Point], radius: float) -> bool:
    """Whether the straight line a-b passes within `radius` of any of `others`."""
    return any(distance_to_segment(o, a, b) < radius for o in others)


def touch_along(frm: Point, to: Point, centre: Point, reach: float) -> float | None:
    """How far a point moving straight from `frm` to `to` goes before it first comes within `reach` of
    `centre` (0 when it starts within reach and moves closer); None when the segment stays out of reach,
    or starts within it and moves off (a base leaving the one it touches is not running into it)."""
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return None
    ux, uy = dx / length, dy / length
    wx, wy = frm[0] - centre[0], frm[1] - centre[1]
    b = wx * ux + wy * uy  # negative while closing in
    c = wx * wx + wy * wy - reach * reach
    if c <= 0:
        return 0.0 if b < 0 else None
    disc = b * b - c
    if disc <= 0:
        return None
    s = -b - math.sqrt(disc)
    return s if 0 <= s < length else None


def inches(hundredths: float) -> str:
    """A distance for a sentence: 6.0" (one decimal, two when needed)."""
    text = f"{hundredths / 100.0:.2f}"
    if text.endswith("0"):
        text = text[:-1]
    return text + '"'


def where(point: Sequence[int]) -> str:
    """A position for a sentence, in inches as the setup's sentences give it: (13", 12") or (12.2", 12")."""

    def one(v: int) -> str:
        return f"{v / 100:.2f}".rstrip("0").rstrip(".") + '"'

    return f"({one(point[0])}, {one(point[1])})"
