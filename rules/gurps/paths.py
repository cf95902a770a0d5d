"""Checking a movement path: hexes entered one by one, each next to the last (spec section 4.1)."""

from __future__ import annotations

from typing import Any

from rules.hexes import Hex, as_hex, direction_to
from rules.interface import BadCommand, RuleError


def checked_path(c: dict[str, Any], path: list[list[int]]) -> list[Hex]:
    """The path as hexes, starting next to his position (a leading copy of his own hex is dropped)."""
    if c.get("position") is None:
        raise RuleError(f"{c['name']} has no position on the map")
    hexes: list[Hex] = []
    for i, p in enumerate(path):
        if not isinstance(p, list) or len(p) != 2 or not all(isinstance(v, int) for v in p):
            raise BadCommand(f"path[{i}] must be an axial hex [q, r]", f"path[{i}]")
        hexes.append(as_hex(p))
    start = as_hex(c["position"])
    if hexes and hexes[0] == start:
        hexes = hexes[1:]
    if not hexes:
        raise BadCommand("path must list at least one hex to move into", "path")
    prev = start
    for i, h in enumerate(hexes):
        if direction_to(prev, h) is None:
            raise RuleError(
                f"the path is not connected: {list(h)} is not next to {list(prev)}", {"path_index": i}
            )
        prev = h
    return hexes


def movement_cost_error(c: dict[str, Any], cost: int, left: int) -> RuleError:
    """The refusal for a path longer than the movement left."""
    return RuleError(
        f"{c['name']} needs {cost} movement point(s) for this path but has {left} left this turn",
        {"cost": cost, "left": left},
    )
