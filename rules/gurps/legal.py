"""Which gurps commands a combatant may send now (`legal_actions`)."""

from __future__ import annotations

from typing import Any

from rules.gurps.combatant_stats import has_empty_hand, worn_shield
from rules.gurps.hex_sharing import in_close_combat
from rules.gurps.maneuvers import GRAPPLE_MANEUVERS, MANEUVERS, current_maneuver
from rules.gurps.options import option
from rules.gurps.situational_modifiers import fighter, grapplers_of, is_grappled, pins_on


def legal_actions(state: dict[str, Any], cid: str) -> list[str]:
    """Command types `cid` may send now (a best effort: decide still checks every condition)."""
    c = state.get("combatants", {}).get(cid)
    if c is None or state.get("turn", 0) < 1:
        return []
    maneuver = current_maneuver(state, cid)
    held = bool(grapplers_of(state, cid) or pins_on(state, cid))
    if maneuver is None:
        if cid in state.get("actions_spent", {}):
            return []
        out = ["gurps.choose_maneuver"]
        if not pins_on(state, cid):
            out.append("gurps.ready_item")
            if worn_shield(c) and in_close_combat(state, cid):
                out.append("gurps.drop_shield")
        return out
    f = fighter(state, cid)
    out = []
    if pins_on(state, cid):
        return ["gurps.break_free"] if maneuver == "attack" and f["attacks_this_maneuver"] == 0 else []
    if f["movement_left"] > 0:
        out.append("gurps.move")
        if MANEUVERS[maneuver]["movement"] not in ("step", "none") and not is_grappled(state, cid):
            out.append("gurps.evade")
    attack_open = MANEUVERS[maneuver]["attack"] and f["attacks_this_maneuver"] == 0
    if attack_open and in_close_combat(state, cid):
        out.append("gurps.close_combat_attack")
        if maneuver in GRAPPLE_MANEUVERS and has_empty_hand(c):
            out.append("gurps.grapple")
        if maneuver == "attack":
            out += ["gurps.takedown", "gurps.pin"]
            if held:
                out.append("gurps.break_free")
    if maneuver == "ready" and not f["readied"]:
        out.append("gurps.ready_item")
        if worn_shield(c) and in_close_combat(state, cid):
            out.append("gurps.drop_shield")
    if option(state, "adjacent_close_combat") and not in_close_combat(state, cid):
        out.append("gurps.declare_close_combat")
    return out
