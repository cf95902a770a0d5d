"""Plane geometry (DESIGN.md "Units"): positions [x, y] in hundredths of an inch, facing in whole degrees,
0 = +x, counter-clockwise. Floats live only inside these functions; what leaves them is an integer."""

from __future__ import annotations

import math
from typing import Any

Point = list[int]


def is_point(p: Any) -> bool:
    return (
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
    )


def distance(a: Point, b: Point) -> int:
    """Straight distance, rounded to the nearest hundredth."""
    return round(math.hypot(b[0] - a[0], b[1] - a[1]))


def path_length(start: Point, path: list[Point]) -> int:
    """Length of the route from `start` through each point of `path`."""
    total = 0.0
    here = start
    for p in path:
        total += math.hypot(p[0] - here[0], p[1] - here[1])
        here = p
    return round(total)


def bearing(a: Point, b: Point) -> int:
    """The facing (degrees) that looks from a to b; 0 when they coincide."""
    if a == b:
        return 0
    return round(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))) % 360


def angle_between(f1: int, f2: int) -> int:
    d = abs(f1 - f2) % 360
    return min(d, 360 - d)


def faces_wrong_way(position: Point, facing: int, opponent: Point) -> bool:
    """Spec 6 row 7: the opponent is outside the front 180 degrees, i.e. more than 90 degrees off the facing."""
    return angle_between(facing, bearing(position, opponent)) > 90


def point_towards(a: Point, b: Point, length: int) -> Point:
    """The point `length` along the line from a towards b (rounded to whole hundredths)."""
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    if d == 0:
        return list(a)
    return [round(a[0] + (b[0] - a[0]) * length / d), round(a[1] + (b[1] - a[1]) * length / d)]


def point_away(a: Point, b: Point, length: int) -> Point:
    """The point `length` from a straight away from b (along +x if they coincide)."""
    d = math.hypot(a[0] - b[0], a[1] - b[1])
    if d == 0:
        return [a[0] + length, a[1]]
    return [round(a[0] + (a[0] - b[0]) * length / d), round(a[1] + (a[1] - b[1]) * length / d)]


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """Closest approach of the segment a-b to the point p."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    dx, dy = bx - ax, by - ay
    if dx == 0 and dy == 0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def crosses(a: Point, b: Point, others: list[Point], radius: int) -> bool:
    """Whether the straight line a-b passes within `radius` of any other figure's centre (spec 6 row 10)."""
    return any(distance_to_segment(o, a, b) < radius for o in others)
