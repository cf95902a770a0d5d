"""Skirmish offers: the card, the strikes and grapples at each foe, the GM's chart readings, built and
checked by rules/offer_checks.py, and the plain move on the open table as a region of one move around
the figure (the rules set no limit to it: DECISION, the region offers one move, `stats.move_in`)."""

from __future__ import annotations

from typing import Any

from rules.offer_checks import offers_of
from rules.offers import plane_move, region
from rules.skirmish.figures import move_reach

TITLES = {
    "skirmish.draw_card": "Draw the next card",
    "skirmish.strike": "Strike {target}",
    "skirmish.grapple": "Grapple {target}",
    "skirmish.record_damage_result": "Record the damage result",
    "skirmish.record_fall": "Record the fall",
    "skirmish.record_morale": "Record the morale test",
    "skirmish.captor_acts": "Act as captor",
    "skirmish.liberate": "Free the prisoner",
}


def offers(ruleset: Any, state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The offers of `cid` (or of the GM, "gm")."""
    c = state["combatants"].get(cid)
    built = []
    if c is not None and c.get("position") is not None and "move" in ruleset.legal_actions(state, cid):
        reach = move_reach(c)
        if reach:
            built.append(plane_move(cid, region(c["position"], reach)))
    return offers_of(ruleset, state, cid, built, titles=TITLES)
