"""The swing after a pull off balance (§Make a Grab; spec section 4.3)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, CloseCombatJoined, Moved, Wounded
from events.dice import Dice
from rules.ap_grapple.close_combat import group_id_for, leaving
from rules.ap_grapple.combatants import name_of, occupants, position
from rules.ap_grapple.events import GripReleased
from rules.ap_grapple.options import option
from rules.ap_grapple.tables import BARRIER_DAMAGE_DIE
from rules.hexes import Hex, as_hex, as_list, direction_to, neighbour
from rules.refusals import refuse

SWING_REACTION = "swing_target"
DEFAULT_SWING = "own_hex"  # always open: the attacker's own hex


def destinations(state: dict[str, Any], attacker: str, defender: str) -> dict[str, list[int]] | None:
    """Where the defender may be swung, by name -> hex; None when the two are not next to each other.

    left/right are the hexes next to both, seen from the attacker looking at the defender
    (left = A + dir(d+1), right = A + dir(d-1)); they are listed only while open. own_hex is the
    attacker's hex, in_place the defender's own (a barrier swing only). OPTION swing_destinations
    "any_adjacent_to_attacker" adds every other open hex next to A as "dir_<direction>".
    """
    a = position(state["combatants"][attacker])
    d_hex = position(state["combatants"][defender])
    if a is None or d_hex is None:
        return None
    d = direction_to(a, d_hex)
    if d is None:
        return None
    found: dict[str, Hex] = {}
    for name, h in (("left", neighbour(a, d + 1)), ("right", neighbour(a, d - 1))):
        if not occupants(state, h):
            found[name] = h
    found["own_hex"] = a
    found["in_place"] = d_hex
    if option(state, "swing_destinations") == "any_adjacent_to_attacker":
        for e in range(6):
            h = neighbour(a, e)
            if e not in (d, (d + 1) % 6, (d - 1) % 6) and not occupants(state, h):
                found[f"dir_{e}"] = h
    return {name: as_list(h) for name, h in found.items()}


def choice_problems(
    state: dict[str, Any], attacker: str, defender: str, to: str, barrier: bool, current: dict[str, list[int]]
) -> list[str]:
    """Why the swing to `to` is not allowed, in plain words."""
    if to == "in_place" and not barrier:
        return ["in_place is only for a swing against a barrier (barrier: true)"]
    if to == "own_hex" and barrier:
        # DECISION (NOTES.md): pulled into the attacker's own hex, the defender meets no obstacle.
        return ["a swing into the attacker's own hex cannot end against a barrier"]
    if to not in current:
        if to in ("left", "right"):
            return [f"the {to} hex is occupied, so {name_of(state, defender)} cannot be swung there"]
        return [f"{to!r} is not a destination; choose one of: {', '.join(current)}"]
    return []


def resolve_swing(
    state: dict[str, Any], attacker: str, defender: str, to: str, barrier: bool, dice: Dice
) -> list[msgspec.Struct]:
    """The swing's events (4.3), or a RuleError naming why this destination is not allowed."""
    current = destinations(state, attacker, defender) or {}
    problems = choice_problems(state, attacker, defender, to, barrier, current)
    refuse(
        problems,
        f"{name_of(state, attacker)} cannot swing {name_of(state, defender)} there",
        {"to": to, "destinations": current},
    )
    a = position(state["combatants"][attacker])
    d_hex = position(state["combatants"][defender])
    dest = as_hex(current[to])
    assert a is not None and d_hex is not None and dest is not None  # destinations() checked them
    events: list[msgspec.Struct] = [
        ActionDeclared(
            attacker,
            "swing",
            [defender],
            {"to": to, "barrier": barrier, "from": as_list(d_hex), "hex": as_list(dest)},
        ),
    ]
    if to != "in_place":
        events += leaving(state, defender, dest, "pulled")
        events.append(Moved(defender, as_list(dest), "pulled", None, as_list(d_hex)))
    if to == "own_hex":
        gid = group_id_for(state, [attacker], a)
        events.append(CloseCombatJoined(gid, [attacker, defender], as_list(a), True))
    if barrier:
        roll = dice.roll(1, BARRIER_DAMAGE_DIE, "barrier damage", combatant=defender)
        events.append(roll.event(outcome=f"{roll.faces[0]} damage"))
        events.append(Wounded(defender, roll.faces[0], "swung against barrier"))
    events.append(GripReleased(attacker, defender, "swing complete"))
    return events


def swing_lost(state: dict[str, Any], attacker: str, defender: str) -> str | None:
    """Why an owed swing can no longer happen (someone left, or the two are no longer adjacent), or None."""
    if attacker not in state["combatants"] or defender not in state["combatants"]:
        return "a combatant of the grab has left the encounter"
    if destinations(state, attacker, defender) is None:
        return f"{name_of(state, defender)} is no longer next to {name_of(state, attacker)}"
    return None
