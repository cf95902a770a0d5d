"""Axial hex geometry (DESIGN.md "Units"; spec section 1): directions 0-5 counter-clockwise from +q."""

from __future__ import annotations

from typing import Any

Hex = tuple[int, int]

# Direction d is the neighbour offset; d + 1 turns counter-clockwise (to the left).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def as_hex(position: Any) -> Hex | None:
    """A `[q, r]` position as a tuple, or None when the combatant has no usable position."""
    if isinstance(position, (list, tuple)) and len(position) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in position
    ):
        return (position[0], position[1])
    return None


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex next to `h` in `direction` (taken modulo 6)."""
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from `a` to the adjacent hex `b`, or None if they are not next to each other."""
    for d in range(6):
        if neighbour(a, d) == b:
            return d
    return None


def as_list(h: Hex) -> list[int]:
    """A hex as the JSON `[q, r]` that events carry."""
    return [h[0], h[1]]
