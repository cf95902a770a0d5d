"""What a player's guide says of gurps beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.gurps.combatant_stats import REQUIRED_INTEGER_STATS
from rules.interface import FirstTurn, list_of_objects

# Each figure takes its own turn in the initiative order within a `start_turn`; there are no phases.
PHASES: tuple[str, ...] = ()

STATS: dict[str, str] = {
    "ST": "strength: grappling scores",
    "DX": "dexterity: attack, evade and grappling rolls",
    "basic_move": "hexes a Move maneuver covers",
    "dodge": "the Dodge defence",
    "skills": "{name: level}: weapon skills, Wrestling, Judo, Sumo Wrestling, Fast-Draw (<item>)",
    "weapons": '[{name, kind: melee or ranged, reach: ["C", "1"], parry, bulk, damage}]; reach C attacks '
    "and parries in close combat; an empty hand is an entry such as {name: hand, reach: [C], ...}",
    "shield": "{name, db} or null: db is the Defense Bonus",
    "hands": "how many hands (default 2): each ready weapon and a worn shield fill one; an empty hand parries, "
    "punches and grapples",
    "block": "the Block defence with the shield, used only outside close combat (e.g. against a step-out attack)",
    "traits": "e.g. flight, super_jump (an automatic evade)",
}
# rules/gurps/combatant_stats.py completed_combatant: these four needed, the lists and shield filled in.
REQUIRED_STATS = REQUIRED_INTEGER_STATS
COMPLETED_STATS = (*REQUIRED_INTEGER_STATS, "skills", "weapons", "shield", "traits")
# What combatant_stats.completed_combatant holds each stat to.
STAT_TYPES: dict[str, dict[str, Any]] = {
    **{k: {"type": "integer"} for k in REQUIRED_INTEGER_STATS},
    "skills": {"type": "object", "additionalProperties": {"type": "integer"}},
    "weapons": list_of_objects(
        {
            "name": {"type": "string", "description": "the weapon's name (its item's id)"},
            "kind": {"enum": ["melee", "ranged"], "description": "melee or ranged"},
            "reach": {"type": "array", "items": {"type": "string"}, "description": 'e.g. ["C", "1"]'},
            "parry": {"type": "integer", "description": "the Parry it gives"},
            "bulk": {"type": "integer", "description": "Bulk, stored negative (e.g. -3)"},
            "damage": {"type": "string", "description": "its damage, like 1d-2 or 2d+1 cut"},
            "unarmed": {"type": "boolean", "description": "true: an empty hand's entry"},
            "skill": {"type": "string", "description": "the skill it is used with (default by its kind)"},
            "fencing": {"type": "boolean", "description": "true: a fencing weapon"},
        },
        ("name", "kind"),
    ),
    "shield": {
        "anyOf": [
            {
                "type": "object",
                "properties": {
                    "name": {
                        "type": "string",
                        "description": "the shield's name (its item's, default shield)",
                    },
                    "db": {"type": "integer", "description": "its Defense Bonus"},
                },
                "required": ["db"],
            },
            {"type": "null"},
        ]
    },
    "hands": {"type": "integer", "minimum": 0},
    "block": {"type": "integer"},
    "traits": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
}

# The fields of combatant.items[] the rules read (issue 29 item 11): how a weapon is sheathed or dropped.
ITEM_FIELDS: dict[str, str] = {
    "id": "which weapon (its name, without case) or `shield` the item is; add_combatant gives every weapon and "
    "the shield one, ready, unless the GM lists it",
    "name": "what the log and the page call it",
    "state": "ready (in hand, or the shield worn: it strikes, parries or blocks), dropped (on the ground: "
    "gurps.ready_item refuses it), or any other word such as sheathed or carried: not ready, and gurps.ready_item readies "
    "it under a Ready maneuver (a DX roll in close combat). A weapon starts sheathed when its item is listed "
    'with that state at add_combatant, e.g. {"id": "knife", "name": "knife", "state": "sheathed"}',
}

REACTIONS: dict[str, dict[str, Any]] = {
    "defence": {
        "asked": "the figure hit in close combat",
        "choices": {
            "dodge": "dodge (the default)",
            "parry": "parry with a ready reach-C weapon or an empty hand "
            "(retreat: true and to: [q, r] to retreat)",
            "block": "block with the shield: only outside close combat, with stats.block",
        },
        "params": {
            "retreat": "true to retreat with the defence (the figure steps back into `to`, whatever the roll; "
            "a failed defence against a grapple pulls the figure back into the hex it left)",
            "to": "with retreat: the [q, r] hex to retreat to",
            "weapon": "parry: the name of the ready weapon parried with (default: the best)",
        },
    },
    "evade_stop": {
        "asked": "the foe whose hex an evader moves through",
        "choices": {
            "stop": "try to stop the evader: a Quick Contest (the default)",
            "let_pass": "let it pass, no roll",
        },
    },
    "fall_hex": {
        "asked": "the target of a failed takedown",
        "choices": {"<hex>": "where the fallen figure lands"},
    },
    "gm_ruling": {
        "asked": "the GM, with base_grapple_mode gm",
        "choices": {"<outcome>": "the outcome of the grapple, takedown, pin or break free"},
        "params": {"text": "the GM's ruling in words, for the log"},
    },
}

FIRST_TURN = FirstTurn(
    name="Alley fight",
    combatants=(
        {
            "id": "ana",
            "name": "Ana",
            "side": "heroes",
            "position": [-2, 0],
            "facing": 0,
            "stats": {
                "ST": 10,
                "DX": 12,
                "basic_move": 6,
                "dodge": 8,
                "weapons": [
                    {
                        "name": "hand",
                        "kind": "melee",
                        "reach": ["C"],
                        "parry": 7,
                        "damage": "1d-2",
                        "unarmed": True,
                    }
                ],
            },
        },
        {
            "id": "bors",
            "name": "Bors",
            "side": "thugs",
            "position": [0, 0],
            "facing": 3,
            "posture": "prone",
            "stats": {"ST": 10, "DX": 11, "basic_move": 5, "dodge": 8},
        },
    ),
    plays=("ana",),
    commands=(
        (
            "gm",
            "The GM starts turn 1 (GURPS has no phases: each figure takes its own turn).",
            {"type": "start_turn", "turn": 1},
        ),
        (
            "player",
            "Ana chooses the Move maneuver ...",
            {"type": "gurps.choose_maneuver", "combatant": "ana", "maneuver": "Move"},
        ),
        (
            "player",
            "... and evades through the prone Bors' hex: Bors' side is asked to stop Ana or let Ana pass.",
            {"type": "gurps.evade", "combatant": "ana", "target": "bors", "path": [[-1, 0], [0, 0], [1, 0]]},
        ),
    ),
)
