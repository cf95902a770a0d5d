"""Table-top geometry in hundredths of an inch (DESIGN "Units"; spec §1).

Computation is in floats; anything that goes into an event is rounded to the nearest hundredth
(positions) or integer degree (facings) first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = Sequence[float]

CONTACT_TOLERANCE = 1  # 0.01": spec §1 base-to-base contact
COHERENCY_GAP = 200  # 2": §Unit Coherency During Charges
ANGLE_EPSILON = 1e-6  # the 45° and 135° boundaries belong to the narrower arc (A1)


def round_half_up(value: float) -> int:
    """Nearest integer, halves away from minus infinity (so results never depend on banker's rounding)."""
    return math.floor(value + 0.5)


def rounded(point: Point) -> list[int]:
    """A computed position as event data: integer hundredths."""
    return [round_half_up(point[0]), round_half_up(point[1])]


def distance(a: Point, b: Point) -> float:
    """Centre-to-centre distance."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def base_gap(a: Point, ra: float, b: Point, rb: float) -> float:
    """Gap between two round bases (edge to edge; negative when they overlap)."""
    return distance(a, b) - ra - rb


def bearing(frm: Point, to: Point) -> float:
    """Direction from `frm` to `to` in degrees, 0 = +x, counter-clockwise, in [0, 360)."""
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0])) % 360.0


def facing_toward(frm: Point, to: Point) -> int:
    """The integer facing that looks from `frm` at `to`."""
    return round_half_up(bearing(frm, to)) % 360


def arc_of(attacker: Point, facing: int, defender: Point) -> str:
    """Which arc of the attacker the defender stands in: front, left, right or rear (spec §1, A1)."""
    delta = (bearing(attacker, defender) - facing + 180.0) % 360.0 - 180.0
    size = abs(delta)
    if size <= 45.0 + ANGLE_EPSILON:
        return "front"
    if size <= 135.0 + ANGLE_EPSILON:
        return "left" if delta > 0 else "right"
    return "rear"


def step_toward(frm: Point, to: Point, length: float) -> list[float]:
    """The point `length` along the straight line from `frm` toward `to` (past it if longer)."""
    d = distance(frm, to)
    if d == 0:
        return [float(frm[0]), float(frm[1])]
    return [frm[0] + (to[0] - frm[0]) * length / d, frm[1] + (to[1] - frm[1]) * length / d]


def step_away(frm: Point, away_from: Point, length: float) -> list[float]:
    """The point `length` from `frm` directly away from `away_from` (line through both centres)."""
    d = distance(away_from, frm)
    if d == 0:
        return [float(frm[0]), float(frm[1])]
    return [frm[0] + (frm[0] - away_from[0]) * length / d, frm[1] + (frm[1] - away_from[1]) * length / d]


def centroid(points: Sequence[Point]) -> list[float]:
    """The mean of some points."""
    n = len(points)
    return [sum(p[0] for p in points) / n, sum(p[1] for p in points) / n]


def path_length(points: Sequence[Point]) -> float:
    """Length of a polyline."""
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


def inches(hundredths: float) -> str:
    """A distance for a sentence: 6.0\" style (one decimal, two when needed)."""
    value = hundredths / 100.0
    text = f"{value:.2f}"
    if text.endswith("0"):
        text = text[:-1]
    return text + '"'


def where(point: Sequence[int]) -> str:
    """A position for a sentence: (13, 12) or (12.2, 12)."""
    def one(v: int) -> str:
        s = f"{v / 100:.2f}".rstrip("0").rstrip(".")
        return s
    return f"({one(point[0])}, {one(point[1])})"
