"""Axial hex geometry, the one every hex ruleset uses (DESIGN.md "Units"; the tft spec, section 1).

A position is `[q, r]` in events and state, a `Hex` tuple inside the rules. Direction d = 0..5 is
the neighbour offset below, counter-clockwise from +q (d + 1 turns left); a facing is a direction.
"""

from __future__ import annotations

from typing import Any

Hex = tuple[int, int]

# Direction d -> (dq, dr): 0=(+1,0), 1=(+1,-1), 2=(0,-1), 3=(-1,0), 4=(-1,+1), 5=(0,+1).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def as_hex(position: Any) -> Hex | None:
    """A `[q, r]` position as a tuple, or None when it is no position (missing, not two integers)."""
    if (
        isinstance(position, (list, tuple))
        and len(position) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in position)
    ):
        return (position[0], position[1])
    return None


def as_list(h: Any) -> list[int]:
    """A hex as the JSON `[q, r]` that events carry."""
    return [h[0], h[1]]


def neighbour(h: Any, direction: int) -> Hex:
    """The hex next to `h` across edge `direction` (taken modulo 6)."""
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Any) -> list[Hex]:
    """The six hexes around `h`, in direction order."""
    return [neighbour(h, d) for d in range(6)]


def direction_to(a: Any, b: Any) -> int | None:
    """The direction d with neighbour(a, d) == b, or None when they are not adjacent."""
    delta = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


def distance(a: Any, b: Any) -> int:
    """Number of hex steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Any, b: Any) -> bool:
    """Whether two hexes touch (False when either is missing)."""
    return a is not None and b is not None and distance(a, b) == 1


def label(h: Any) -> str:
    """A hex as state keys, the log and reaction choices write it: "q,r" ("nowhere" for no position)."""
    return f"{h[0]},{h[1]}" if h is not None else "nowhere"


def parse_label(text: str) -> Hex | None:
    """The hex named "q,r", or None."""
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        return None
