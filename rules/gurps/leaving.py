"""Leaving a foe's hex (spec section 4.3, §Leaving a Foe's Hex): only a figure who began his turn
there and whom nobody grapples, and only through the three hexes on his side (or by evading)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import Moved
from rules.gurps.close_combat import arrival
from rules.gurps.events import GrappleReleased
from rules.gurps.hex_sharing import own_side_hexes, seat_of, shared_hex
from rules.gurps.maneuvers import current_maneuver
from rules.gurps.situational_modifiers import fighter, grappled_by_me, grapplers_of
from rules.gurps.state import evolve_rules
from rules.gurps.tables import FULL_MOVE_MANEUVERS, MANEUVERS
from rules.hexes import Hex, as_hex, label
from rules.refusals import refuse
from rules.working import folded


def leaving_problems(state: dict[str, Any], cid: str) -> list[str]:
    """Why he may not leave his close-combat hex now (empty when he may)."""
    c = state["combatants"][cid]
    problems = []
    holders = grapplers_of(state, cid)
    if holders:
        names = ", ".join(state["combatants"][h]["name"] for h in holders if h in state["combatants"])
        # A refusal points only to a command that could be accepted, or says what must change first.
        how = (
            "break free first (gurps.break_free)"
            if current_maneuver(state, cid) == "attack"
            else "break free first, which takes an Attack maneuver (gurps.break_free, on a turn he chooses attack)"
        )
        problems.append(f"{c['name']} is grappled by {names}: {how}")
    h = shared_hex(state, cid)
    seat = seat_of(state, cid)
    if h is not None and seat is not None and not seat["declared_adjacent"]:
        if fighter(state, cid)["began_in_hex"] != label(h["at"]):
            problems.append(f"{c['name']} did not begin this turn in the close-combat hex")
    return problems


def releases_on_leaving(state: dict[str, Any], cid: str) -> list[msgspec.Struct]:
    """DECISION: a grappler who leaves the hex lets go of everyone he holds."""
    return [GrappleReleased(cid, g, "left the hex") for g in grappled_by_me(state, cid)]


def exits_for(state: dict[str, Any], cid: str) -> list[Hex]:
    """The hexes he may leave into without evading (his side of the shared hex)."""
    h = shared_hex(state, cid)
    seat = seat_of(state, cid)
    if h is None or seat is None:
        return []
    return own_side_hexes(h["at"], seat["entry_edge"])


def _through_the_foe(c: dict[str, Any], maneuver: str, barred: bool) -> str:
    """Where leaving through the foe's side is sent: to gurps.evade only when an evade could be accepted
    (a refusal points only to what could be, or says what must change first)."""
    if barred:  # he may not leave at all now: the other problems say why, evading too
        return ""
    if MANEUVERS[maneuver]["movement"] in ("step", "none"):
        return (
            f"; leaving forward through the foe's side is an evade (gurps.evade), which takes a maneuver "
            f"with movement, not {maneuver}"
        )
    return f"; to leave forward through the foe's side, {c['name']} must evade (gurps.evade)"


def leaving_events(state: dict[str, Any], cid: str, maneuver: str, to: Hex) -> list[msgspec.Struct]:
    """He moves (or steps) out of his shared hex into `to`: `Moved {disengage}`, `CloseCombatLeft`."""
    c = state["combatants"][cid]
    problems = leaving_problems(state, cid)
    seat = seat_of(state, cid)
    declared = bool(seat and seat["declared_adjacent"])
    if not declared and to not in exits_for(state, cid):
        sides = ", ".join(str(list(x)) for x in exits_for(state, cid))
        problems.append(
            f"{list(to)} is not one of the three hexes on {c['name']}'s side of the hex ({sides})"
            + _through_the_foe(c, maneuver, bool(problems))
        )
    refuse(problems, details={"combatant": cid})
    how = "move" if maneuver in FULL_MOVE_MANEUVERS else "step"
    releases = releases_on_leaving(state, cid)
    return [
        *releases,
        *arrival(
            folded(state, releases, evolve_rules),
            Moved(cid, list(as_hex(to)), "disengage", None, list(c["position"])),
            how,
        ),
    ]
