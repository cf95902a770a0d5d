"""What a figure may send now (`legal_actions`): the same `<verb>_problems` the deciders refuse with, so the
list and the refusals cannot disagree."""

from __future__ import annotations

from typing import Any

from rules.skirmish import flow, moving, prisoners


def legal_actions(state: dict[str, Any], combatant: str) -> list[str]:
    """Command types this figure may send now."""
    if combatant not in state.get("combatants", {}):
        return []
    if state.get("pending"):
        mine = any(
            p.get("kind") == flow.DEFENCE_REACTION and p.get("combatant") == combatant
            for p in state["pending"]
        )
        return ["respond"] if mine else []
    actions = []
    if not flow.attacker_problems(state, combatant, "strike"):
        actions.append("skirmish.strike")
    if not flow.attacker_problems(state, combatant, "grapple"):
        actions.append("skirmish.grapple")
    if not prisoners.captor_acts_problems(state, combatant):
        actions.append("skirmish.captor_acts")
    if not moving.move_problems(state, combatant):
        actions.append("move")
    return actions
