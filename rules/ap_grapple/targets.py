"""Who may be grabbed or brawled (spec 4.2 "Target", 4.4 "Target and path", section 6 rows 11-12)."""

from __future__ import annotations

from typing import Any

from rules.ap_grapple.combatants import name_of, stat


def opponent_problems(state: dict[str, Any], attacker: str, defender: str) -> list[str]:
    """The target must be someone else, an enemy, and both must have a body weight."""
    a, d = state["combatants"][attacker], state["combatants"][defender]
    problems = []
    if attacker == defender:
        problems.append(f"{name_of(state, attacker)} cannot wrestle {name_of(state, attacker)}")
    elif a.get("side") == d.get("side"):
        problems.append(
            f"{name_of(state, defender)} is on {name_of(state, attacker)}'s own side, not an enemy"
        )
    for cid in dict.fromkeys((attacker, defender)):
        if stat(state["combatants"][cid], "weight_lb") is None:
            problems.append(f"{name_of(state, cid)} has no weight_lb stat (the GM enters a body weight)")
    return problems
