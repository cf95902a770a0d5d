"""What a player's guide says of rogue-trader beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.interface import FirstTurn, list_of_objects
from rules.rogue_trader.roster import PROFILE
from rules.rogue_trader.tables import CATACHAN_DEVIL, DEVIL_VARIANTS, SPECIAL_KINDS
from rules.rogue_trader.turn_sequence import PHASES

STATS: dict[str, str] = {
    "profile": "the 12 values M WS BS S T W I A Ld Int Cl WP in one list, instead of each by name",
    "M": "move in inches (the profile's first value; M WS BS S T W I A Ld Int Cl WP as in the seed)",
    "WS": "weapon skill",
    "BS": "ballistic skill",
    "S": "strength",
    "T": "toughness",
    "W": "wounds",
    "I": "initiative",
    "A": "attacks",
    "Ld": "leadership",
    "Int": "intelligence",
    "Cl": "cool",
    "WP": "will power",
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
    "size": "a Catachan Devil's size: small, medium (default) or large",
    "variant": "a large Catachan Devil's variant: female, male or fiddler (left out: rolled)",
    "variant_roll": "set when a large Catachan Devil's variant is left to be rolled",
    "equipment_hands": "hands holding equipment, so not free for weapons (default 0)",
}
# rules/rogue_trader/roster.py: the profile (given, or a creature's filled in) and the defaults after it.
COMPLETED_STATS = (
    *PROFILE,
    *("unit", "leader", "hands", "equipment_hands", "handedness", "save", "living", "base_radius"),
    *("move_penalty", "weapons", "special_attacks"),
)
# What roster.complete holds each stat to (a profile given as 12 values, by name, or a creature's preset:
# so no stat is required of the body by itself; the completed combatant has them all).
_INTEGER: dict[str, Any] = {"type": "integer"}
_DAMAGE: dict[str, Any] = {
    "anyOf": [
        {"type": "integer", "minimum": 0},
        {"type": "string", "pattern": "^\\s*([0-9]{0,9}[dD][1-9][0-9]{0,8}|[0-9]{1,9})\\s*$"},
    ],
    "description": "a whole number or dice such as D4, D6, 2D6",
}
STAT_TYPES: dict[str, dict[str, Any]] = {
    "profile": {"type": "array", "items": _INTEGER, "minItems": len(PROFILE), "maxItems": len(PROFILE)},
    **{k: _INTEGER for k in (*PROFILE, "hands", "equipment_hands", "base_radius", "move_penalty")},
    "save": {"anyOf": [{"type": "integer", "minimum": 2, "maximum": 6}, {"type": "null"}]},
    "unit": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "leader": {"type": "boolean"},
    "living": {"type": "boolean"},
    "handedness": {"enum": ["right", "left", "ambi"]},
    "weapons": list_of_objects(
        {
            "id": {"type": "string", "description": "the weapon's id, which allocate_attacks names"},
            "name": {"type": "string", "description": "what the log calls it (default its id)"},
            "type": {"type": "string", "description": "its C/S/H/F flags (default C)"},
            "S": {"anyOf": [_INTEGER, {"type": "null"}], "description": "its own strength"},
            "save_mod": {"anyOf": [_INTEGER, {"type": "null"}], "description": "default 0"},
            "damage": _DAMAGE,
            "hands": {"enum": [1, 2], "description": "default 1"},
            "held_in": {"type": "string", "description": "R, L or both (default R, both for two hands)"},
            "range": {"anyOf": [_INTEGER, {"type": "null"}], "description": "hundredths of an inch"},
        },
        ("id",),
    ),
    "special_attacks": list_of_objects(
        {
            "kind": {
                "enum": list(SPECIAL_KINDS),
                "description": "the attack's kind: its arcs and damage",
            },
            "count": {**_INTEGER, "description": "how many (default 1)"},
            "damage": _DAMAGE,
            "S": {**_INTEGER, "description": "its own strength (default the creature's S)"},
        },
        ("kind",),
    ),
    "creature": {"enum": ["catachan_devil"]},
    "size": {"enum": list(CATACHAN_DEVIL)},
    "variant": {"enum": list(DEVIL_VARIANTS)},
    "variant_roll": {"enum": ["catachan_devil"]},
}

REACTIONS: dict[str, dict[str, Any]] = {
    "charged": {
        "asked": 'the model charged (a standing order such as {"charged": "hold"} answers at once)',
        "choices": {
            "hold": "stand and take the charge (the default)",
            "stand_and_fire": "shoot at the charger first (not after running away this turn)",
            "run_away": "flee a double move directly away from the charger (not after standing and firing this "
            "turn); routed if the charger can still reach",
        },
        # The fields resume_charged reads from respond's params (charging.CHARGE_PARAMS).
        "params": {
            "turn_to_face": "true to turn toward the charger first, with any answer (default false)",
            "weapon": "stand_and_fire: the id of the weapon fired (needed when it carries more than one)",
            "modifiers": "stand_and_fire: the GM's [{value, reason}] on the shot's to-hit",
            "terrain_divisor": "run_away: 2 or more when difficult ground slows the run (default 1)",
        },
    },
    "push_back_stop": {
        "asked": "the GM, when a pushed-back model's 2\" would end on (or run into) another model's base "
        "(§Push-backs names only buildings; the rest of the unit's push-back waits for the answer)",
        "choices": {
            "short": "it stops where its base meets the model in its way, still pushed back (the default)",
            "place": "the GM sets it down elsewhere within its push-back, with `params.to`",
        },
        # The fields resume_push_back reads from respond's params (aftermath.STOP_PARAMS).
        "params": {
            "to": "place: [x, y] in hundredths of an inch, within the push-back's length of where the model "
            "stands, on no other model's base and out of base contact with every enemy",
        },
    },
}

__all__ = ["COMPLETED_STATS", "FIRST_TURN", "PHASES", "REACTIONS", "STATS", "STAT_TYPES"]

FIRST_TURN = FirstTurn(
    name="Hive stair",
    options={"turn_order": ["red", "blue"]},
    combatants=(
        {
            "id": "m1",
            "name": "Brother Kael",
            "side": "red",
            "position": [0, 0],
            "facing": 0,
            "stats": {
                "M": 4,
                "WS": 4,
                "BS": 4,
                "S": 4,
                "T": 4,
                "W": 1,
                "I": 4,
                "A": 1,
                "Ld": 8,
                "save": 4,
                "unit": "kael",
                "weapons": [{"id": "chainsword", "name": "chainsword", "type": "C", "S": 4}],
            },
        },
        {
            "id": "c1",
            "name": "Cultist",
            "side": "blue",
            "position": [300, 0],
            "facing": 180,
            "reactions": {"charged": "hold"},
            "stats": {
                "M": 4,
                "WS": 3,
                "BS": 3,
                "S": 3,
                "T": 3,
                "W": 1,
                "I": 3,
                "A": 1,
                "Ld": 7,
                "save": None,
                "unit": "cult",
                "weapons": [{"id": "laspistol", "name": "laspistol", "type": "C", "S": 3, "range": 800}],
            },
        },
    ),
    plays=("m1",),
    commands=(
        (
            "gm",
            "The GM starts turn 1 (red's, by the option turn_order) ...",
            {"type": "start_turn", "turn": 1},
        ),
        ("gm", "... and its movement phase.", {"type": "start_phase", "phase": "movement"}),
        (
            "player",
            "Brother Kael charges the cultist 3 inches away (the cultist's standing order: hold).",
            {"type": "rogue-trader.charge", "combatant": "m1", "target": "c1"},
        ),
        ("gm", "On to the close combat phase.", {"type": "start_phase", "phase": "close_combat"}),
    ),
)
