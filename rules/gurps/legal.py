"""Which gurps commands a combatant may send now (`legal_actions`), judged by the same `*_problems`
functions the deciders refuse with (decide still checks every field a command names)."""

from __future__ import annotations

from typing import Any

from rules.gurps.attacks import attack_problems, grapple_problems, strike_problems
from rules.gurps.combatant_stats import is_lying, readyable_items, weapons, worn_shield
from rules.gurps.commands import StepOutAttack
from rules.gurps.hex_sharing import in_close_combat, shared_hex
from rules.gurps.leaving import exits_for, leaving_problems
from rules.gurps.maneuvers import current_maneuver
from rules.gurps.options import option
from rules.gurps.situational_modifiers import fighter, grapplers_of, pins_on
from rules.gurps.stepping_out import step_out_problems
from rules.gurps.tables import MANEUVERS


def _foes_beside(state: dict[str, Any], cid: str) -> list[str]:
    """Foes in his close-combat hex."""
    h = shared_hex(state, cid)
    side = state["combatants"][cid]["side"]
    return [
        o
        for o in (h or {"occupants": {}})["occupants"]
        if o in state["combatants"] and state["combatants"][o]["side"] != side
    ]


def _may_step_out_and_strike(state: dict[str, Any], cid: str, maneuver: str) -> bool:
    if leaving_problems(state, cid):
        return False
    foes = [
        f for f in state["combatants"] if state["combatants"][f]["side"] != state["combatants"][cid]["side"]
    ]
    return any(
        not step_out_problems(
            state, StepOutAttack(combatant=cid, to=list(to), target=f, weapon=w["name"]), maneuver
        )
        for to in exits_for(state, cid)
        for f in foes
        for w in weapons(state["combatants"][cid])
    )


def legal_actions(state: dict[str, Any], cid: str) -> list[str]:
    """Command types `cid` may send now: while a reaction is pending nothing else is accepted, so only
    the answer (`respond`) of the figure it is about (as rogue-trader and skirmish say)."""
    if state.get("pending"):
        return ["respond"] if any(p.get("combatant") == cid for p in state["pending"]) else []
    return actions_open(state, cid)


def actions_open(state: dict[str, Any], cid: str) -> list[str]:
    """Command types `cid` could send were no reaction pending (whose turn it is reads these)."""
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
            if readyable_items(c):  # with nothing to ready there is no ready_item to send (offers.py)
                out.append("gurps.ready_item")
            if worn_shield(c) and in_close_combat(state, cid):
                out.append("gurps.drop_shield")
        return out
    f = fighter(state, cid)
    if pins_on(state, cid):
        return ["gurps.break_free"] if maneuver == "attack" and f["attacks_this_maneuver"] == 0 else []
    out = []
    # §Leaving a Foe's Hex: a grappled figure cannot leave the hex until he breaks free (issue 29 item 5).
    if f["movement_left"] > 0 and not held:
        out.append("gurps.move")
        if MANEUVERS[maneuver]["movement"] not in ("step", "none"):
            out.append("gurps.evade")
    foes = _foes_beside(state, cid)
    if any(not strike_problems(state, cid, t, w["name"], maneuver) for t in foes for w in weapons(c)):
        out.append("gurps.close_combat_attack")
    if _may_step_out_and_strike(state, cid, maneuver):
        out.append("gurps.step_out_attack")
    if any(not grapple_problems(state, cid, t, maneuver) for t in foes):
        out.append("gurps.grapple")
    if any(not attack_problems(state, cid, t, maneuver, frozenset({"attack"})) for t in foes):
        # §Grappling: a takedown throws a standing foe, a pin holds one lying down, grappled by him or
        # a helper of his side (issue 29 item 5: not before any grapple).
        side = c["side"]
        held_foes = [
            state["combatants"][t]
            for t in foes
            if any(state["combatants"].get(g, {}).get("side") == side for g in grapplers_of(state, t))
        ]
        if any(t.get("posture") == "standing" for t in held_foes):
            out.append("gurps.takedown")
        if any(is_lying(t) for t in held_foes):
            out.append("gurps.pin")
    # A held figure may always try to break free under an Attack (§Leaving a Foe's Hex: "you may still
    # choose a maneuver ... you cannot leave the hex until you break free"), wherever the holder stands:
    # not only at a foe beside him, or a figure held from another hex would be offered nothing at all.
    if held and maneuver == "attack" and f["attacks_this_maneuver"] == 0:
        out.append("gurps.break_free")
    if maneuver == "ready" and not f["readied"]:
        if readyable_items(c):
            out.append("gurps.ready_item")
        if worn_shield(c) and in_close_combat(state, cid):
            out.append("gurps.drop_shield")
    if option(state, "adjacent_close_combat") and not in_close_combat(state, cid):
        out.append("gurps.declare_close_combat")
    return out
