"""What follows from wounds, knockouts and departures: groups that end (4.9, A27), pins that end (4.11)."""

from __future__ import annotations

from typing import Any

from events.common import CloseCombatLeft, PinReleased
from rules.tft import figures as F
from rules.tft.pinned_condition import pin_ended
from rules.tft.state import evolve_rules
from rules.working import folded


def _group_has_enemies(state: dict[str, Any], group: dict[str, Any]) -> bool:
    members = [
        state["combatants"][m]
        for m in group["combatants"]
        if m in state["combatants"] and F.conscious(state["combatants"][m])
    ]
    return any(F.enemies(a, b) for i, a in enumerate(members) for b in members[i + 1 :])


def consequences(state: dict[str, Any], events: list[Any]) -> list[Any]:
    """Events that must follow `events`: a group without two conscious enemies ends; a pin whose holder is
    down or gone ends. Returns only the extra events."""
    s = folded(state, events, evolve_rules)
    extra: list[Any] = []
    for pin in s.get("pins", []):
        holder = s["combatants"].get(pin["holder"])
        if holder is not None and not F.conscious(holder):
            extra += pin_ended(PinReleased(pin["pinned"], pin["holder"]))
    for gid, group in sorted(s["groups"].items()):
        if not _group_has_enemies(s, group):
            extra += [CloseCombatLeft(gid, m, "group_ended") for m in group["combatants"]]
    # A group the reducer already dissolved (its last but one member left): the one left behind leaves too.
    left = {(e.group, e.combatant) for e in events if isinstance(e, CloseCombatLeft)}
    for gid, group in sorted(state["groups"].items()):
        if gid not in s["groups"]:
            extra += [
                CloseCombatLeft(gid, m, "group_ended")
                for m in group["combatants"]
                if (gid, m) not in left and m in s["combatants"]
            ]
    s2 = folded(s, extra, evolve_rules)
    released = {(p.pinned, p.holder) for p in extra if isinstance(p, PinReleased)}
    for pin in s2.get("pins", []):
        if (pin["pinned"], pin["holder"]) in released:
            continue
        h, p = s2["combatants"].get(pin["holder"]), s2["combatants"].get(pin["pinned"])
        if h is None or p is None or not h.get("group") or h.get("group") != p.get("group"):
            extra += pin_ended(PinReleased(pin["pinned"], pin["holder"]), p is not None)
    return extra
