"""TFT's offers (rules/offers.py): a move to the hexes the MA left reaches, each with its path; the
other commands of `legal_actions` with the figures, items and values their fields take; every variant
held to the rules (rules/offer_checks.py). Here the move and the titles in words."""

from __future__ import annotations

from typing import Any

from rules.offer_checks import offers_of
from rules.offers import destination_choice, offer, reachable
from rules.tft import figures as F
from rules.tft.movement import move_limit

TITLES = {
    "tft.enter_hth": "Enter hand-to-hand with {target}",
    "tft.dive_for_legs": "Dive for {target}'s legs",
    "tft.join_hth": "Join the brawl with {target}",
    "tft.hth_attack": "Attack {target} in hand-to-hand",
    "tft.cast_spell_in_hth": "Cast a spell in hand-to-hand",
    "tft.draw_dagger": "Draw a dagger",
    "tft.drop_shield": "Drop the shield",
    "tft.disengage": "Disengage",
    "tft.pin": "Pin {target}",
    "tft.break_pin": "Break the pin",
    "tft.release_pin": "Let go of the pin",
    "tft.strike_into_hth": "Strike {target} in the brawl",
    "tft.missile_into_hth_far": "Shoot into the brawl",
    "tft.consent_hth": "Let {target} into hand-to-hand",
    "tft.set_hth_preferences": "Set hand-to-hand preferences",
    "tft.pass": "Pass",
    "tft.move": "Move",
    "tft.prone_unarmed_attack": "Punch {target} from the ground",
    "tft.defend": "Defend on the ground",
    "tft.stand_up": "Stand up",
    "tft.pick_up": "Pick up an item",
    "tft.attack_fallen": "Attack {target} on the ground",
    "tft.set_back_to_wall": "Set back to the wall",
}
REACH = 6  # hexes looked at for a move (nearest first); the MA left and the rules prune them


def offers(ruleset: Any, state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The offers of `cid` (or of the GM, "gm")."""
    c = state["combatants"].get(cid)
    built = []
    if c is not None and c.get("position") is not None and "tft.move" in ruleset.legal_actions(state, cid):
        left = move_limit(state, c) - F.tft_record(state, cid)["hexes_moved"]
        taken = {
            tuple(o["position"]) for o in state["combatants"].values() if o.get("position") and o is not c
        }
        paths = reachable(c["position"], min(REACH, left), lambda h: h not in taken)
        paths = {h: p for h, p in paths.items() if h not in taken}
        if paths:
            built.append(
                offer("tft.move", "tft.move", "Move", {"combatant": cid}, [destination_choice(paths)])
            )
    return offers_of(ruleset, state, cid, built, titles=TITLES)
