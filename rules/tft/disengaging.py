"""Disengaging from HTH: 4vs(HTH DX), stand up in an adjacent hex (4.9; §Actions-Disengage)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent, CloseCombatLeft, FacingChanged, Moved, PostureChanged
from events.dice import Dice
from rules.hexes import adjacent, label
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.aftermath import consequences
from rules.tft.attacking import member_problems
from rules.tft.commands import Disengage
from rules.tft.dx_in_hth import hth_dx
from rules.tft.hth_actions import entry_turn_problems
from rules.tft.initiative import slot_problems

DISENGAGE_DICE = 4  # 4vsDX (§Actions-Disengage)


def disengage(state: dict[str, Any], cmd: Disengage, dice: Dice) -> list[Any]:
    """Leave the group for an empty adjacent hex; the others stay on the ground."""
    c = F.get(state, cmd.combatant)
    if cmd.facing is not None and not 0 <= cmd.facing <= 5:
        raise BadCommand("facing must be 0-5", "facing")
    if not (isinstance(cmd.to, list) and len(cmd.to) == 2):
        raise BadCommand("to must be an [q, r] hex", "to")
    problems = (
        slot_problems(state, c["id"], cmd.actor)
        + entry_turn_problems(state, c["id"])
        + member_problems(state, c["id"])
    )
    group = F.group_of(state, c["id"])
    if group is not None:
        if not adjacent(group["at"], cmd.to):
            problems.append(f"{label(cmd.to)} is not next to the brawl at {label(group['at'])}")
        elif F.occupants(state, cmd.to):
            problems.append(f"{label(cmd.to)} is not empty")
    refuse(problems, f"{c['name']} may not disengage")
    target, mods = hth_dx(state, c["id"], "general")
    r = dice.roll(DISENGAGE_DICE, 6, "disengage", c["id"])
    ok = r.sum <= target
    events: list[Any] = [
        ActionDeclared(c["id"], "disengage", [], {"to": list(cmd.to), "facing": cmd.facing}),
        r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure"),
    ]
    if ok:
        events.append(Moved(c["id"], list(cmd.to), "disengage", None, list(group["at"])))
        if c.get("posture") != "standing":
            events.append(PostureChanged(c["id"], "standing"))
        if cmd.facing is not None:
            events.append(FacingChanged(c["id"], cmd.facing))
        events.append(CloseCombatLeft(group["group"], c["id"], "disengaged"))
    events.append(ActionSpent(c["id"], state.get("turn", 0), "disengage"))
    return events + consequences(state, events)
