"""Pass (spec 4.1): a combatant gives up the rest of its AP this round."""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import Dice
from rules.ap_grapple.action_points import actor_problems, ap_left, spend
from rules.ap_grapple.combatants import name_of
from rules.ap_grapple.commands import Pass
from rules.interface import combatant_or_error
from rules.refusals import refuse


def decide_pass(state: dict[str, Any], cmd: Pass, dice: Dice) -> list[msgspec.Struct]:
    """`APSpent` (all remaining) and `ActionSpent {why: "passed"}`."""
    cid = cmd.combatant
    combatant_or_error(state, cid)
    problems = actor_problems(state, cid)
    if ap_left(state, cid) == 0:
        problems.append(f"{name_of(state, cid)} has no AP left to give up")
    refuse(problems, f"{name_of(state, cid)} cannot pass")
    return spend(state, cid, ap_left(state, cid), "passed", all_spent_why="passed")
