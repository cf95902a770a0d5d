"""Axial hex geometry (DESIGN.md "Units"; spec section 1)."""

from __future__ import annotations

from typing import Any

# Direction d -> (dq, dr): 0=(+1,0), 1=(+1,-1), 2=(0,-1), 3=(-1,0), 4=(-1,+1), 5=(0,+1).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour(pos: list[int], direction: int) -> list[int]:
    """The hex next to `pos` in `direction` (0-5)."""
    dq, dr = DIRECTIONS[direction % 6]
    return [pos[0] + dq, pos[1] + dr]


def neighbours(pos: list[int]) -> list[list[int]]:
    """The six hexes around `pos`, in direction order."""
    return [neighbour(pos, d) for d in range(6)]


def distance(a: Any, b: Any) -> int:
    """Hex distance between two axial positions."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Any, b: Any) -> bool:
    """Whether two hexes touch."""
    return a is not None and b is not None and distance(a, b) == 1


def rear_hex(pos: list[int], facing: int) -> list[int]:
    """The one rear hex of a figure at `pos` facing `facing` (direction facing+3)."""
    return neighbour(pos, facing + 3)


def label(pos: Any) -> str:
    """A hex as the log and reaction options write it: "q,r"."""
    return f"{pos[0]},{pos[1]}" if pos is not None else "nowhere"


def parse_label(text: str) -> list[int] | None:
    """The hex named "q,r", or None."""
    try:
        q, r = text.split(",")
        return [int(q), int(r)]
    except ValueError:
        return None
