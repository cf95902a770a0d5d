"""What a combatant may send now (spec section 3, "What each combatant may do next")."""

from __future__ import annotations

from typing import Any

from rules.ap_grapple.action_points import actor_problems, ap_left, ap_per_round, pending_swing
from rules.ap_grapple.combatants import is_stunned, position
from rules.ap_grapple.commands import Brawl, MakeAGrab, Move, Pass, SwingTarget
from rules.ap_grapple.tables import AP_PER_HEX, GRAB_COST
from rules.ap_grapple.walking import walker_problems
from rules.hexes import distance


def _tag(command: type) -> str:
    return command.__struct_config__.tag


def _enemy_distances(state: dict[str, Any], cid: str) -> list[int]:
    me = state["combatants"][cid]
    here = position(me)
    if here is None:
        return []
    return [
        distance(here, h)
        for other, c in state["combatants"].items()
        if other != cid and c.get("side") != me.get("side") and (h := position(c)) is not None
    ]


def legal_commands(state: dict[str, Any], cid: str) -> list[str]:
    """Command types this combatant may send now (a quick screen; decide gives the full reasons)."""
    if cid not in state["combatants"] or is_stunned(state, cid):
        return []
    if pending_swing(state, cid):
        return [_tag(SwingTarget)]
    if actor_problems(state, cid):
        return []
    left = ap_left(state, cid)
    out: list[str] = []
    enemies = _enemy_distances(state, cid)
    if left >= GRAB_COST and 1 in enemies:
        out.append(_tag(MakeAGrab))
    # A brawl needs the whole, untouched budget and an enemy within a charge (ending next to him).
    if left == ap_per_round(state, cid) > 0 and any(dist - 1 <= left // AP_PER_HEX for dist in enemies):
        out.append(_tag(Brawl))
    if not walker_problems(state, cid):
        out.append(_tag(Move))
    if left > 0:
        out.append(_tag(Pass))
    return out
