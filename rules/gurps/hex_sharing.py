"""Who shares which hex and which half (spec section 3, §Entering, §Multiple Close Combat)."""

from __future__ import annotations

from typing import Any

from rules.gurps.state import hex_of
from rules.hexes import Hex, as_hex, label, neighbour


def own_side_directions(entry_edge: int) -> list[int]:
    """The three edges of a shared hex on the side of a figure who came in through `entry_edge`
    (spec section 3: e-1, e, e+1)."""
    return [(entry_edge - 1) % 6, entry_edge % 6, (entry_edge + 1) % 6]


def foe_side_directions(entry_edge: int) -> list[int]:
    """The three edges on the foe's side of a shared hex (spec section 3: e+2, e+3, e+4)."""
    return [(entry_edge + 2) % 6, (entry_edge + 3) % 6, (entry_edge + 4) % 6]


def rules_of(state: dict[str, Any]) -> dict[str, Any]:
    """The gurps part of the state."""
    return state.get("rules") or {}


def shared_hex(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    """The shared-hex record {at, occupants} of `cid`, or None when he is not in close combat."""
    key = hex_of(rules_of(state), cid)
    return rules_of(state)["hexes"][key] if key else None


def seat_of(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    """His half: {entry_edge, declared_adjacent}, or None."""
    h = shared_hex(state, cid)
    return h["occupants"][cid] if h else None


def in_close_combat(state: dict[str, Any], cid: str) -> bool:
    """Whether he shares (or is declared into) a foe's hex."""
    return shared_hex(state, cid) is not None


def in_close_combat_with(state: dict[str, Any], a: str, b: str) -> bool:
    """Whether a and b are in the same close-combat hex (section 4.8 counts declared fighters)."""
    h = shared_hex(state, a)
    return h is not None and b in h["occupants"] and a != b


def hex_occupants(state: dict[str, Any], position: list[int] | Hex) -> list[str]:
    """Combatants standing in a hex (by position; declared-adjacent fighters are not in it)."""
    target = as_hex(position)
    return [
        cid
        for cid, c in state["combatants"].items()
        if c.get("position") is not None and as_hex(c["position"]) == target
    ]


def foes_in_hex(state: dict[str, Any], position: list[int] | Hex, side: str) -> list[str]:
    """Combatants of another side standing in a hex."""
    return [cid for cid in hex_occupants(state, position) if state["combatants"][cid]["side"] != side]


def own_side_hexes(at: list[int] | Hex, entry_edge: int) -> list[Hex]:
    """The three hexes a figure may leave into (section 3: across e-1, e, e+1)."""
    return [neighbour(at, d) for d in own_side_directions(entry_edge)]


def foe_side_hexes(at: list[int] | Hex, entry_edge: int) -> list[Hex]:
    """The three hexes on the foe's side (across e+2, e+3, e+4): reached only by evading."""
    return [neighbour(at, d) for d in foe_side_directions(entry_edge)]


def group_id_for(state: dict[str, Any], foe: str, at: list[int] | Hex) -> str:
    """The close-combat group a newcomer joins: the foe's, or a new one named after the hex."""
    g = state["combatants"][foe].get("group")
    return g if g else f"cc:{label(at)}"


def group_members(state: dict[str, Any], gid: str) -> list[str]:
    """Members of a close-combat group (common state)."""
    g = state.get("groups", {}).get(gid)
    return list(g["combatants"]) if g else []
