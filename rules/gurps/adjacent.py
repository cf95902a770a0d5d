"""The adjacent close-combat compromise (spec section 4.8, §Multiple Close Combat; OPTION
`adjacent_close_combat`): a fighter next to a foe declares himself in close combat with him and is
treated as in the foe's hex, on the half toward his own hex; his position does not change."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.gurps.close_combat import declaration_events
from rules.gurps.commands import DeclareCloseCombat
from rules.gurps.hex_sharing import in_close_combat_with, shared_hex
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.options import option
from rules.hexes import direction_to
from rules.refusals import refuse


def decide_declare(state: dict[str, Any], cmd: DeclareCloseCombat, dice: Any = None) -> list[msgspec.Struct]:
    """`gurps.declare_close_combat`."""
    cid, target = cmd.combatant, cmd.target
    c, t = state["combatants"][cid], state["combatants"][target]
    problems = []
    if not option(state, "adjacent_close_combat"):
        problems.append("declaring close combat from an adjacent hex needs the option adjacent_close_combat")
    own_turn_or_error(state, cid)
    if t["side"] == c["side"]:
        problems.append(f"{t['name']} is not a foe")
    edge = None
    if c.get("position") is not None and t.get("position") is not None:
        edge = direction_to(t["position"], c["position"])
    if edge is None:
        problems.append(f"{c['name']} is not in a hex next to {t['name']}")
    if in_close_combat_with(state, cid, target):
        problems.append(f"{c['name']} is already in close combat with {t['name']}")
    elif shared_hex(state, cid) is not None:
        problems.append(f"{c['name']} is in another close combat")
    refuse(problems, details={"combatant": cid, "target": target})
    assert edge is not None
    return declaration_events(state, cid, target, edge)
