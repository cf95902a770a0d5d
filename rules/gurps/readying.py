"""Readying in close combat (spec section 4.6, the seed's "Reading in Close Combat").

In close combat a DX roll is needed; a failed roll still spends the Ready maneuver. With Fast-Draw
the command comes before the maneuver: DX first, then Fast-Draw (DECISION: only after a DX
success); a failed Fast-Draw readies the item but the maneuver is Ready and his turn ends.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionSpent, ItemReadied
from events.dice import Dice
from rules.gurps.combatant_stats import item_state, skill_level, stats
from rules.gurps.commands import ReadyItem
from rules.gurps.hex_sharing import in_close_combat
from rules.gurps.maneuvers import choose, current_maneuver
from rules.gurps.situational_modifiers import dx_modifiers, fighter, pins_on
from rules.gurps.success_rolls import success_roll
from rules.refusals import refuse


def _item_problems(c: dict[str, Any], item: str) -> list[str]:
    st = item_state(c, item)
    if st is None:
        return [f"{c['name']} has no item {item!r}"]
    if st == "ready":
        return [f"{c['name']}'s {item} is already ready"]
    if st == "dropped":
        return [f"{c['name']}'s {item} lies on the ground (pick it up first)"]
    return []


def fast_draw_skill(c: dict[str, Any], item: str) -> int | None:
    """His Fast-Draw level for this item ("Fast-Draw (Knife)"), or None."""
    return skill_level(c, f"Fast-Draw ({item})")


def decide_ready(state: dict[str, Any], cmd: ReadyItem, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.ready_item`."""
    cid, item = cmd.combatant, cmd.item
    c = state["combatants"][cid]
    maneuver = current_maneuver(state, cid)
    problems = _item_problems(c, item)
    if pins_on(state, cid):
        problems.append(
            f"{c['name']} is pinned: only breaking free is allowed, which takes an Attack maneuver (gurps.break_free)"
        )
    if cmd.fast_draw:
        if maneuver is not None:
            problems.append(
                f"Fast-Draw comes before the maneuver, and {c['name']} has already chosen {maneuver}"
            )
        if fast_draw_skill(c, item) is None:
            problems.append(f"{c['name']} has no Fast-Draw ({item}) skill")
    elif maneuver not in (None, "ready"):
        problems.append(f"readying needs a Ready maneuver, and {c['name']} chose {maneuver}")
    elif maneuver == "ready" and fighter(state, cid)["readied"]:
        problems.append(f"{c['name']} has already readied something this maneuver")
    refuse(problems, details={"combatant": cid, "item": item})

    events: list[msgspec.Struct] = []
    ready_maneuver = [] if maneuver == "ready" else choose(state, cid, "ready")
    in_cc = in_close_combat(state, cid)
    if in_cc:
        dx = success_roll(
            dice,
            combatant=cid,
            purpose="ready",
            base=int(stats(c)["DX"]),
            base_name="DX",
            modifiers=dx_modifiers(state, cid),
        )
        if not dx.success:
            # §Readying: a failed roll still takes the Ready maneuver, and accomplishes nothing.
            # DECISION: the Ready is used up (as a failed DropShield), so he cannot roll again this turn.
            return ready_maneuver + [
                dx.event,
                ActionSpent(cid, int(state["turn"]), f"failed to ready the {item}"),
            ]
        events.append(dx.event)
    if not cmd.fast_draw:
        return ready_maneuver + events + [ItemReadied(cid, item)]
    fd = success_roll(
        dice,
        combatant=cid,
        purpose="fast_draw",
        base=int(fast_draw_skill(c, item) or 0),
        base_name=f"Fast-Draw ({item})",
    )
    events += [fd.event, ItemReadied(cid, item)]
    if fd.success:
        return events  # readied at once; he still picks his maneuver
    return (
        ready_maneuver
        + events
        + [ActionSpent(cid, int(state["turn"]), f"a full Ready for the {item} (Fast-Draw failed)")]
    )
