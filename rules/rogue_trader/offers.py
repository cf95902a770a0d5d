"""Rogue-trader offers: charges at each enemy, the round, push-backs and follow-ups, and the answers to
a charge the rules allow now (rules/offer_checks.py; issue 29 item 7: never stand and fire refused)."""

from __future__ import annotations

from rules.offer_checks import titled

TITLES = {
    "rogue-trader.charge": "Charge {target}",
    "rogue-trader.retarget": "Charge another enemy",
    "rogue-trader.allocate_attacks": "Allocate the attacks",
    "rogue-trader.resolve_round": "Fight the round",
    "rogue-trader.push_back": "Push back",
    "rogue-trader.follow_up": "Follow up",
    "rogue-trader.break_off": "Break off",
    "rogue-trader.set_situation": "Set the situation",
}

offers = titled(TITLES)
