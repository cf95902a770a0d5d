"""TFT's offers (rules/offers.py): each command of `legal_actions` with the figures, items and hexes its
fields take, every variant held to the rules (rules/offer_checks.py); here only their titles in words."""

from __future__ import annotations

from rules.offer_checks import titled

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

offers = titled(TITLES)
