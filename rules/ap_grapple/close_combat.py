"""Shared hexes as common close-combat groups (spec section 3, "shared hexes")."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatLeft
from rules.hexes import Hex, as_hex


def group_of(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    """The close-combat group the combatant is in, if any."""
    gid = (state["combatants"].get(cid) or {}).get("group")
    return state["groups"].get(gid) if gid else None


def leaving(state: dict[str, Any], cid: str, to: Hex, how: str) -> list[msgspec.Struct]:
    """`CloseCombatLeft` when a move takes the combatant out of its group's hex."""
    g = group_of(state, cid)
    if g is not None and as_hex(g.get("at")) != to:
        return [CloseCombatLeft(g["group"], cid, how)]
    return []


def group_id_for(state: dict[str, Any], members: list[str], at: Hex) -> str:
    """The group that `members` join at `at`: a member's existing group there, else a fresh id."""
    for cid in members:
        g = group_of(state, cid)
        if g is not None and as_hex(g.get("at")) == at:
            return g["group"]
    base = f"ap-grapple-{state.get('seq', 0) + 1}"
    gid, n = base, 1
    while gid in state["groups"]:
        n += 1
        gid = f"{base}-{n}"
    return gid
