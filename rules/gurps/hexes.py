"""Hex geometry of the gurps map (spec section 1, DESIGN.md "Units").

Positions are axial [q, r]; a direction d = 0..5 is the neighbour offset below, counter-clockwise,
and a facing is a direction. Front hexes are f, f+1, f-1; the left side f+2, the right side f-2;
the back f+3 (mod 6).
"""

from __future__ import annotations

from collections.abc import Sequence

Hex = tuple[int, int]

# Spec section 1 (the numbering of tft.md): neighbour offsets by direction.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Where a neighbour lies relative to a figure's facing: (direction - facing) mod 6 -> arc.
# Spec section 1 and section 6 #5 (front-left and front-right count as front).
ARC_BY_OFFSET: dict[int, str] = {0: "front", 1: "front", 5: "front", 2: "left", 4: "right", 3: "back"}


def as_hex(position: Sequence[int]) -> Hex:
    """A position list [q, r] as a tuple."""
    return (int(position[0]), int(position[1]))


def hex_key(position: Sequence[int]) -> str:
    """The state key of a hex: "q,r"."""
    q, r = as_hex(position)
    return f"{q},{r}"


def neighbour(position: Sequence[int], direction: int) -> Hex:
    """The hex next to `position` across edge `direction`."""
    q, r = as_hex(position)
    dq, dr = DIRECTIONS[direction % 6]
    return (q + dq, r + dr)


def neighbours(position: Sequence[int]) -> list[Hex]:
    """The six hexes around `position`, by direction."""
    return [neighbour(position, d) for d in range(6)]


def direction_to(origin: Sequence[int], other: Sequence[int]) -> int | None:
    """The direction d with neighbour(origin, d) == other, or None when they are not adjacent."""
    o = as_hex(origin)
    t = as_hex(other)
    delta = (t[0] - o[0], t[1] - o[1])
    return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """Hex distance between two axial positions."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def arc_of(facing: int | None, direction: int) -> str:
    """Whether the neighbour across `direction` is in the front, left, right or back of a figure.

    A figure without a facing is approached from the front (nothing better is known)."""
    if facing is None:
        return "front"
    return ARC_BY_OFFSET[(direction - facing) % 6]


def own_side_directions(entry_edge: int) -> list[int]:
    """The three edges of a shared hex on the side of a figure who came in through `entry_edge`
    (spec section 3: e-1, e, e+1)."""
    return [(entry_edge - 1) % 6, entry_edge % 6, (entry_edge + 1) % 6]


def foe_side_directions(entry_edge: int) -> list[int]:
    """The three edges on the foe's side of a shared hex (spec section 3: e+2, e+3, e+4)."""
    return [(entry_edge + 2) % 6, (entry_edge + 3) % 6, (entry_edge + 4) % 6]
