"""Who is in close combat (§Close Combat): "any situation in which you occupy the same hex as your foe".

The one place that derives it. Every way a figure comes to stand in a hex (the GM placing him, a
move, an evade, a retreat, a throw, leaving one close combat for a hex holding another foe) goes
through `arrival` or `settled`, which emit the events that start and end close combat; the fold
only records them. A hex holding no two foes is no close combat: allies left alone in it leave it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatJoined, CloseCombatLeft, CombatantJoined, Moved
from rules.common import commands as common
from rules.gurps.events import HalfHexTaken
from rules.gurps.hex_sharing import hex_occupants, rules_of
from rules.gurps.state import evolve_rules, hex_of
from rules.hexes import Hex, as_hex, direction_to, label
from rules.working import folded


def _side(state: dict[str, Any], cid: str) -> str:
    return state["combatants"][cid]["side"]


def in_hex(state: dict[str, Any], at: Hex) -> list[str]:
    """Everyone who counts as in hex `at`: standing in it, or declared into it from the next hex (4.8)."""
    declared = [
        cid
        for cid, seat in (rules_of(state)["hexes"].get(label(at)) or {"occupants": {}})["occupants"].items()
        if seat["declared_adjacent"] and cid in state["combatants"]
    ]
    return [*hex_occupants(state, at), *[d for d in declared if d not in hex_occupants(state, at)]]


def has_foes(state: dict[str, Any], members: list[str]) -> bool:
    """Whether two of these figures are foes (of different sides)."""
    return len({_side(state, m) for m in members}) > 1


def _group_of(state: dict[str, Any], at: Hex, members: list[str]) -> str:
    """The close-combat group already fighting in `at`, else a new one named after the hex."""
    for m in members:
        g = state["combatants"][m].get("group")
        if g and as_hex(state["groups"][g]["at"]) == at:
            return g
    return f"cc:{label(at)}"


def _newcomer_edge(state: dict[str, Any], cid: str, at: Hex, came_from: Any) -> int:
    """The edge he came in through: toward the hex he came from; DECISION for a figure the GM places
    (or who arrives from farther away): the half opposite a figure already seated, else the half
    behind his facing (he stands facing into the hex), else edge 3."""
    if came_from is not None:
        d = direction_to(at, as_hex(came_from))
        if d is not None:
            return d
    seats = (rules_of(state)["hexes"].get(label(at)) or {"occupants": {}})["occupants"]
    seated = [s for o, s in seats.items() if not s["declared_adjacent"]]
    if seated:
        return (seated[0]["entry_edge"] + 3) % 6
    facing = state["combatants"][cid].get("facing")
    return (facing + 3) % 6 if facing is not None else 3


def _leaving(state: dict[str, Any], cid: str, how: str) -> list[msgspec.Struct]:
    """He no longer stands in (or next to, by declaration) his close-combat hex: he leaves it, and
    figures left there with no foe among them leave too."""
    key = hex_of(rules_of(state), cid)
    if key is None:
        return []
    h = rules_of(state)["hexes"][key]
    c = state["combatants"][cid]
    seat = h["occupants"][cid]
    here = as_hex(c["position"]) if c.get("position") is not None else None
    if not seat["declared_adjacent"] and here == as_hex(h["at"]):
        return []
    events: list[msgspec.Struct] = [CloseCombatLeft(c.get("group") or f"cc:{key}", cid, how)]
    return events + foeless_events(folded(state, events, evolve_rules), key)


def foeless_events(state: dict[str, Any], key: str) -> list[msgspec.Struct]:
    """Two allies alone in a hex are not a close-combat group: with no foe left among them, they leave
    it (the last one with the group, which ends below two members)."""
    h = rules_of(state)["hexes"].get(key)
    rest = [m for m in (h or {"occupants": {}})["occupants"] if m in state["combatants"]]
    if len(rest) < 2 or has_foes(state, rest):
        return []
    return [
        CloseCombatLeft(state["combatants"][m].get("group") or f"cc:{key}", m, "no foe left")
        for m in rest[:-1]
    ]


def _joining(state: dict[str, Any], cid: str, came_from: Any) -> list[msgspec.Struct]:
    """He stands in a hex with a foe: close combat there, each newcomer on the half he came in by."""
    c = state["combatants"][cid]
    if c.get("position") is None:
        return []
    at = as_hex(c["position"])
    everyone = in_hex(state, at)
    if not has_foes(state, everyone):
        return []
    seats = (rules_of(state)["hexes"].get(label(at)) or {"occupants": {}})["occupants"]
    gid = _group_of(state, at, everyone)
    members = [
        m for m in (state["groups"].get(gid) or {"combatants": []})["combatants"] if m in state["combatants"]
    ]
    if all(m in seats and m in members for m in everyone):
        return []  # already in this close combat
    members += [m for m in everyone if m not in members and m != cid]
    members += [cid] if cid not in members else []
    standing = all(state["combatants"][m].get("posture") == "standing" for m in members)
    events: list[msgspec.Struct] = [CloseCombatJoined(gid, members, list(at), standing)]
    edge = _newcomer_edge(state, cid, at, came_from) if cid not in seats else seats[cid]["entry_edge"]
    for other in everyone:
        if other != cid and other not in seats:
            events.append(HalfHexTaken(other, list(at), (edge + 3) % 6))
    if cid not in seats:
        # The shield's exemption (4.7) is for the figure whose own maneuver carried him in.
        events.append(HalfHexTaken(cid, list(at), edge, moved_in=rules_of(state).get("current") == cid))
    return events


def occupancy_events(
    state: dict[str, Any], cid: str, how: str, came_from: Any = None
) -> list[msgspec.Struct]:
    """What `cid` standing where he now stands (`state` has his arrival folded) means for close combat."""
    if cid not in state["combatants"]:
        return []
    events = _leaving(state, cid, how)
    if events:
        state = folded(state, events, evolve_rules)
    return events + _joining(state, cid, came_from)


def arrival(state: dict[str, Any], moved: Moved, how: str) -> list[msgspec.Struct]:
    """A `Moved` and the close-combat events of where it leaves him (`how`: how he left a close combat)."""
    return [moved, *occupancy_events(folded(state, [moved], evolve_rules), moved.combatant, how, moved.from_)]


def arrivals(state: dict[str, Any], steps: list[tuple[Moved, str]]) -> list[msgspec.Struct]:
    """Several moves in a row (each folded before the next is judged)."""
    events: list[msgspec.Struct] = []
    for moved, how in steps:
        events += arrival(folded(state, events, evolve_rules), moved, how)
    return events


def in_close_combat_at(state: dict[str, Any], at: Hex, side: str) -> list[str]:
    """Foes of `side` who count as in hex `at` (standing there or declared into it)."""
    return [m for m in in_hex(state, as_hex(at)) if _side(state, m) != side]


def declaration_events(state: dict[str, Any], cid: str, target: str, edge: int) -> list[msgspec.Struct]:
    """4.8: he declares himself in close combat with `target` from the next hex (across `edge` of the
    foe's hex): he joins the close combat there on the half toward his own hex, standing where he is."""
    at = as_hex(state["combatants"][target]["position"])
    seats = (rules_of(state)["hexes"].get(label(at)) or {"occupants": {}})["occupants"]
    gid = _group_of(state, at, [target])
    members = [m for m in (state["groups"].get(gid) or {"combatants": []})["combatants"] if m != cid] or [
        target
    ]
    everyone = [*members, cid]
    standing = all(state["combatants"][m].get("posture") == "standing" for m in everyone)
    events: list[msgspec.Struct] = [CloseCombatJoined(gid, everyone, list(at), standing)]
    if target not in seats:
        events.append(HalfHexTaken(target, list(at), (edge + 3) % 6))
    events.append(HalfHexTaken(cid, list(at), edge, moved_in=False, declared_adjacent=True))
    return events


def after_common(state: dict[str, Any], command: Any, events: list[msgspec.Struct]) -> list[msgspec.Struct]:
    """The close-combat events of the GM placing a figure (add_combatant), correcting a position (the
    common move, or a ruling's override of a position) or removing a figure (remove_combatant)."""
    if isinstance(command, common.AddCombatant):
        joined = next((e for e in events if isinstance(e, CombatantJoined)), None)
        if joined is None:
            return events
        return events + occupancy_events(folded(state, events, evolve_rules), joined.id, "placed")
    if isinstance(command, common.Move):
        moved = next((e for e in events if isinstance(e, Moved)), None)
        if moved is None:
            return events
        return events + occupancy_events(
            folded(state, events, evolve_rules), moved.combatant, "moved", moved.from_
        )
    if isinstance(command, common.Ruling):
        # A ruling that sets a position places the figure there like the GM's move.
        moved = [
            cid
            for cid, patch in ((command.overrides or {}).get("combatants") or {}).items()
            if isinstance(patch, dict) and "position" in patch
        ]
        out = list(events)
        for cid in moved:
            out += occupancy_events(folded(state, out, evolve_rules), cid, "moved")
        return out
    if isinstance(command, common.RemoveCombatant):
        key = hex_of(rules_of(state), command.combatant)
        if key is None:
            return events
        return events + foeless_events(folded(state, events, evolve_rules), key)
    return events
