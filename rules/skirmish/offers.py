"""Skirmish offers: the card, the strikes and grapples at each foe, the GM's chart readings, built and
checked by rules/offer_checks.py; these are their words."""

from __future__ import annotations

from rules.offer_checks import titled

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

offers = titled(TITLES)
