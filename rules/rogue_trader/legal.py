"""Which commands a model may send now (spec §3 "legal next actions")."""

from __future__ import annotations

from typing import Any

from rules.rogue_trader.models import (
    active_side,
    contacts_of,
    disadvantaged,
    is_dead,
    rules_model,
    turn,
    unit_of,
)
from rules.rogue_trader.movement import move_problems, turn_flags_problems


def legal_actions(state: dict[str, Any], cid: str) -> list[str]:
    """Command types for this model, from the turn, phase, contacts and what is owed."""
    c = state["combatants"].get(cid)
    if c is None or is_dead(c):
        return []
    r = state.get("rules", {})
    out: list[str] = []
    if any(p.get("combatant") == cid for p in state.get("pending", [])):
        out.append("respond")
    charge = r.get("charge")
    if charge and charge.get("charger") == cid and charge.get("target") in charge.get("ran", []):
        out.append("rogue-trader.retarget")
    uid = unit_of(state, cid)
    if uid in r.get("owed", {}).get("push_back", {}):
        out.append("rogue-trader.push_back")
    if uid in r.get("owed", {}).get("follow_up", {}):
        out.append("rogue-trader.follow_up")
    if out or state.get("pending"):
        return out
    own = c["side"] == active_side(state)
    engaged = bool(contacts_of(state, cid))
    if state.get("phase") == "movement" and own and not charge:
        if not move_problems(state, c):
            out.append("move")
        if engaged and rules_model(state, cid).get("charged_turn") != turn(state):
            out.append("rogue-trader.break_off")
        elif not engaged and not turn_flags_problems(state, c) and not disadvantaged(c):
            out.append("rogue-trader.charge")
    if (
        state.get("phase") == "close_combat"
        and engaged
        and rules_model(state, cid).get("resolved_round") != turn(state)
    ):
        if not disadvantaged(c):
            out.append("rogue-trader.allocate_attacks")
        out.append("rogue-trader.resolve_round")
    return out
