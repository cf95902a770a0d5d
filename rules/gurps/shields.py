"""Dropping a shield in close combat (spec section 4.7): a one-turn Ready maneuver and a DX roll
(with the shield's own -DB once the first close-combat turn is over). The penalties a worn shield
gives are in `situational_modifiers`."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionSpent, ItemDropped
from events.dice import Dice
from rules.gurps.combatant_stats import stats, worn_shield
from rules.gurps.commands import DropShield
from rules.gurps.hex_sharing import in_close_combat
from rules.gurps.maneuvers import choose, current_maneuver
from rules.gurps.situational_modifiers import dx_modifiers, fighter
from rules.gurps.success_rolls import success_roll
from rules.refusals import refuse


def decide_drop_shield(state: dict[str, Any], cmd: DropShield, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.drop_shield`: success drops it at his feet; either way his turn is used."""
    cid = cmd.combatant
    c = state["combatants"][cid]
    maneuver = current_maneuver(state, cid)
    problems = []
    if worn_shield(c) is None:
        problems.append(f"{c['name']} wears no shield")
    if not in_close_combat(state, cid):
        problems.append("outside close combat dropping a shield is a GM ruling (BASE), not this command")
    if maneuver not in (None, "ready"):
        problems.append(f"dropping a shield takes a Ready maneuver, and {c['name']} chose {maneuver}")
    elif maneuver == "ready" and fighter(state, cid)["readied"]:
        # The one-turn Ready is the whole maneuver: it cannot also have readied something.
        problems.append(
            f"{c['name']}'s Ready this turn has already readied {', '.join(fighter(state, cid)['readied'])}"
        )
    refuse(problems, details={"combatant": cid})
    events: list[msgspec.Struct] = [] if maneuver == "ready" else choose(state, cid, "ready")
    roll = success_roll(
        dice,
        combatant=cid,
        purpose="drop_shield",
        base=int(stats(c)["DX"]),
        base_name="DX",
        modifiers=dx_modifiers(state, cid),
    )
    events.append(roll.event)
    if roll.success:
        events.append(
            ItemDropped(cid, "shield", list(c["position"]) if c.get("position") is not None else None)
        )
    why = "dropped the shield" if roll.success else "failed to get rid of the shield"
    events.append(ActionSpent(cid, int(state["turn"]), why))
    return events
