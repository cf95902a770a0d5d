"""What a player's guide says of rogue-trader beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.rogue_trader.turn_sequence import PHASES

STATS: dict[str, str] = {
    "M": "move in inches (the profile's first value; M WS BS S T W I A Ld Int Cl WP as in the seed)",
    "WS": "weapon skill", "BS": "ballistic skill", "S": "strength", "T": "toughness", "W": "wounds",
    "I": "initiative", "A": "attacks", "Ld": "leadership", "Int": "intelligence", "Cl": "cool", "WP": "will power",
    "save": "armour save 2-6 (success on a D6 at least this), or null",
    "weapons": "[{id, name, type: C/S/H/F flags, S, save_mod, damage, hands, held_in, range}]",
    "unit": "the unit the model belongs to",
    "leader": "true for the one leader of a unit (its Ld counts for rout tests)",
    "hands": "hands (default 2)",
    "handedness": "right (default), left or ambi",
    "move_penalty": "inches taken off M by a heavy weapon",
    "special_attacks": "creatures: [{kind: stomp, bite, gore, claw, tail or tentacle, count, damage, S}]",
    "living": "true (default) or false: tail damage",
    "base_radius": "the base's radius in hundredths of an inch",
    "creature": "catachan_devil with size small, medium or large: the seed's profile filled in",
}

REACTIONS: dict[str, dict[str, Any]] = {
    "charged": {"asked": "the model charged (a standing order such as {\"charged\": \"hold\"} answers at once)",
                "choices": {"hold": "stand and take the charge (the default)",
                            "stand_and_fire": "shoot at the charger first",
                            "run_away": "flee (turn_to_face: true to turn toward the charger instead)"}},
}

__all__ = ["PHASES", "REACTIONS", "STATS"]
