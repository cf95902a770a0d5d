"""Entering a foe's hex (spec section 4.1, §Entering a Foe's Hex) and rule-checked movement
(`gurps.move`), including leaving a shared hex (section 4.3, §Leaving a Foe's Hex)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatJoined, FacingChanged, Moved
from rules.gurps.commands import GurpsMove
from rules.gurps.events import GurpsMovementUsed, HalfHexTaken
from rules.gurps.hex_sharing import foes_in_hex, group_id_for, group_members, hex_occupants, shared_hex
from rules.gurps.leaving import leaving_events
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.paths import checked_path, movement_cost_error
from rules.gurps.situational_modifiers import fighter, pins_on
from rules.hexes import Hex, direction_to
from rules.interface import RuleError
from rules.refusals import refuse


def entry_events(state: dict[str, Any], cid: str, came_from: Hex, foe_hex: Hex) -> list[msgspec.Struct]:
    """He enters a foe's hex from `came_from`: close combat starts and he takes the half he came in
    through (entry edge e = the direction back to `came_from`); a foe not yet sharing the hex gets
    e + 3 (section 3)."""
    c = state["combatants"][cid]
    foes = foes_in_hex(state, foe_hex, c["side"])
    entry_edge = direction_to(foe_hex, came_from)
    assert entry_edge is not None
    gid = group_id_for(state, foes[0], foe_hex)
    members = [m for m in group_members(state, gid) if m != cid] or foes
    everyone = [*members, cid]
    standing = all(state["combatants"][m].get("posture") == "standing" for m in everyone)
    events: list[msgspec.Struct] = [
        Moved(cid, list(foe_hex), "move", None, list(came_from)),
        CloseCombatJoined(gid, everyone, list(foe_hex), standing),
    ]
    for foe in foes:
        if shared_hex(state, foe) is None:
            events.append(HalfHexTaken(foe, list(foe_hex), (entry_edge + 3) % 6))
    events.append(HalfHexTaken(cid, list(foe_hex), entry_edge, moved_in=True))
    return events


def stop_facing_foe(cid: str, came_from: Hex, foe_hex: Hex) -> FacingChanged:
    """He stops in the hex facing the foe: the direction he moved in (entry edge + 3)."""
    d = direction_to(came_from, foe_hex)
    assert d is not None
    return FacingChanged(cid, d)


def decide_move(state: dict[str, Any], cmd: GurpsMove) -> list[msgspec.Struct]:
    """`gurps.move`: a path within the maneuver's movement; it may end in a foe's hex (stopping
    there, facing him) but not pass through one (that is `gurps.evade`)."""
    cid = cmd.combatant
    c = state["combatants"][cid]
    maneuver = own_turn_or_error(state, cid, "with movement")
    problems = []
    if pins_on(state, cid):
        problems.append(f"{c['name']} is pinned and cannot move")
    if cmd.extra_cost < 0:
        problems.append("extra_cost cannot be negative")
    if cmd.facing is not None and not 0 <= cmd.facing <= 5:
        problems.append("facing must be 0-5")
    refuse(problems)
    path = checked_path(c, cmd.path)
    left = int(fighter(state, cid)["movement_left"])
    hexes_moved = len(path)
    cost = hexes_moved + cmd.extra_cost
    if cost > left:
        raise movement_cost_error(c, cost, left)

    events: list[msgspec.Struct] = []
    here: Hex = tuple(c["position"])  # type: ignore[assignment]
    if shared_hex(state, cid) is not None:
        events += leaving_events(state, cid, maneuver, path[0])
        here = path[0]
        path = path[1:]
    for i, h in enumerate(path):
        foes = foes_in_hex(state, h, c["side"])
        if foes and i < len(path) - 1:
            names = ", ".join(state["combatants"][f]["name"] for f in foes)
            raise RuleError(f"{c['name']} cannot move through {names}'s hex at {list(h)} without evading: "
                            "end the move there, or use gurps.evade")
        if foes:
            prev = path[i - 1] if i > 0 else here
            if i > 0:
                events.append(Moved(cid, list(prev), "move", None, list(here)))
            events += entry_events(state, cid, prev, h)
            events.append(stop_facing_foe(cid, prev, h))
            # §Entering: a mover who stops loses the rest of his movement.
            events.append(GurpsMovementUsed(cid, hexes_moved, cmd.extra_cost, 0, stopped=True))
            return events
    last = path[-1] if path else here
    friends = [o for o in hex_occupants(state, last) if o != cid]
    if friends and path:
        raise RuleError(f"{c['name']} cannot end his move in {state['combatants'][friends[0]]['name']}'s hex")
    if path:
        events.append(Moved(cid, list(last), "move", cmd.facing, list(here)))
    elif cmd.facing is not None:
        events.append(FacingChanged(cid, cmd.facing))
    events.append(GurpsMovementUsed(cid, hexes_moved, cmd.extra_cost, left - cost))
    return events
