"""ap-grapple's offers: grabs, brawls and walks read off the commands' fields and held to the rules
(rules/offer_checks.py); the titles say them in words."""

from __future__ import annotations

from rules.offer_checks import titled

TITLES = {
    "ap-grapple.pass": "Pass (give up the rest of the AP)",
    "ap-grapple.make_a_grab": "Grab {target}",
    "ap-grapple.swing_target": "Swing the grabbed foe",
    "ap-grapple.brawl": "Brawl with {target}",
    "ap-grapple.move": "Walk",
}

offers = titled(TITLES)
