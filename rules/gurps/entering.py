"""Entering a foe's hex (spec section 4.1, §Entering a Foe's Hex) and rule-checked movement
(`gurps.move`), including leaving a shared hex (section 4.3, §Leaving a Foe's Hex)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import FacingChanged, Moved
from rules.gurps.close_combat import arrival, in_close_combat_at
from rules.gurps.combatant_stats import name
from rules.gurps.commands import GurpsMove
from rules.gurps.events import GurpsMovementUsed
from rules.gurps.hex_sharing import hex_occupants, shared_hex
from rules.gurps.leaving import leaving_events
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.paths import checked_path, movement_cost_error
from rules.gurps.situational_modifiers import fighter, pins_on
from rules.gurps.state import evolve_rules
from rules.hexes import Hex, as_hex, direction_to
from rules.interface import RuleError
from rules.refusals import refuse
from rules.working import folded


def entry_events(state: dict[str, Any], cid: str, came_from: Hex, foe_hex: Hex) -> list[msgspec.Struct]:
    """He steps from `came_from` into a foe's hex: close combat starts there (close_combat.arrival)."""
    return arrival(state, Moved(cid, list(foe_hex), "move", None, list(came_from)), "move")


def stop_facing_foe(cid: str, came_from: Hex, foe_hex: Hex) -> FacingChanged:
    """He stops in the hex facing the foe: the direction he moved in (entry edge + 3)."""
    d = direction_to(came_from, foe_hex)
    assert d is not None
    return FacingChanged(cid, d)


def decide_move(state: dict[str, Any], cmd: GurpsMove, dice: Any = None) -> list[msgspec.Struct]:
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

    start = here = as_hex(c["position"])
    foe_at = next((i for i, h in enumerate(path) if in_close_combat_at(state, h, c["side"])), None)
    if foe_at is not None and foe_at < len(path) - 1:
        h = path[foe_at]
        names = ", ".join(name(state, f) for f in in_close_combat_at(state, h, c["side"]))
        raise RuleError(
            f"{c['name']} cannot move through {names}'s hex at {list(h)} without evading: "
            "end the move there, or use gurps.evade"
        )
    last = path[-1]
    friends = [o for o in hex_occupants(state, last) if o != cid]
    if foe_at is None and friends:
        raise RuleError(f"{c['name']} cannot end the move in {name(state, friends[0])}'s hex")
    events: list[msgspec.Struct] = []
    rest = path
    if shared_hex(state, cid) is not None:
        # §Leaving: out through his side of the hex (the exit hex is judged like any other below).
        events += leaving_events(state, cid, maneuver, path[0])
        here, rest = path[0], path[1:]
    if foe_at is not None:
        prev = path[-2] if len(path) > 1 else start
        if rest and prev != here:
            events += arrival(
                folded(state, events, evolve_rules), Moved(cid, list(prev), "move", None, list(here)), "move"
            )
        if rest:
            events += entry_events(folded(state, events, evolve_rules), cid, prev, last)
        events.append(stop_facing_foe(cid, prev, last))
        # §Entering: a mover who stops loses the rest of his movement.
        events.append(GurpsMovementUsed(cid, hexes_moved, cmd.extra_cost, 0, stopped=True))
        return events
    if rest:
        events += arrival(
            folded(state, events, evolve_rules),
            Moved(cid, list(last), "move", cmd.facing, list(here)),
            "move",
        )
    elif cmd.facing is not None:
        events.append(FacingChanged(cid, cmd.facing))
    events.append(GurpsMovementUsed(cid, hexes_moved, cmd.extra_cost, left - cost))
    return events
