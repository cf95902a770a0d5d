"""What a player's guide says of tft beyond its commands, options and events (spec sections 2 and 4)."""

from __future__ import annotations

from typing import Any

from rules.interface import FirstTurn, list_of_objects
from rules.tft.tables import STAT_DEFAULTS

PHASES = ("movement", "action")

STATS: dict[str, str] = {
    "st": "strength and hits (required): strongest figure, break pin, Take Down",
    "adj_dx": "adjusted DX outside HTH, armor counted, any shield not (required, or dx): every DX roll",
    "dx": "base DX: talent prerequisites (and adj_dx when that is missing)",
    "iq": "base IQ: talent prerequisites",
    "ma": "current MA, magic and armor counted: entry condition C1 and the half-move limit",
    "sprint_bonus": "the part of ma that is a sprinting bonus (default 0): C1",
    "armor_stops": "hits stopped by armor or hide (default 0)",
    "uc": "Unarmed Combat level 0-5 (default 0): Take Down and pin dice",
    "judo": "Judo talent 0, 1 or 2 (default 0)",
    "dive_block": "Dive Block talent 0, 1 or 2 (default 0)",
    "large": "cannot be engaged in HTH unassisted (default false); blocks the Judo throw",
    "fist_damage": "optional bare-hand damage, e.g. 1d6-2, instead of the fist_damage option",
    "natural_attacks": "[{name, damage, hth: bool}], e.g. a troll's bite (default none)",
    "back_to_wall": "a wall or pit behind the figure (default false; the GM's tft.set_back_to_wall): C2",
    "gm_override_prerequisites": "true lets a figure have talents whose prerequisites it lacks",
}
# rules/tft/combatant_check.py validate: st is needed (adj_dx or dx too, either), the defaults filled in.
REQUIRED_STATS = ("st",)
COMPLETED_STATS = ("st", *STAT_DEFAULTS)
# What combatant_check.validate holds each stat to.
_INTEGER: dict[str, Any] = {"type": "integer"}
_BOOLEAN: dict[str, Any] = {"type": "boolean"}
STAT_TYPES: dict[str, dict[str, Any]] = {
    **{k: _INTEGER for k in ("st", "dx", "iq", "adj_dx", "ma", "sprint_bonus", "armor_stops", "uc")},
    "judo": {"type": "integer", "minimum": 0, "maximum": 2},
    "dive_block": {"type": "integer", "minimum": 0, "maximum": 2},
    "natural_attacks": {
        "anyOf": [
            list_of_objects(
                {
                    "name": {"type": "string", "description": "what the log calls it, e.g. bite"},
                    "damage": {"type": "string", "description": "its damage, like 1d6+2"},
                    "hth": {"type": "boolean", "description": "true: usable in HTH"},
                },
                ("name", "damage"),
            ),
            {"type": "null"},
        ]
    },
    "fist_damage": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    **{k: _BOOLEAN for k in ("large", "back_to_wall", "gm_override_prerequisites")},
}

# Section 2's item fields: an item the rules should treat as a dagger must say dagger_list, not only its name.
ITEM_FIELDS: dict[str, str] = {
    "id": "the item's id, which commands name (weapon, item)",
    "name": "what the log calls it (default its id)",
    "kind": "weapon, shield or other (default other)",
    "state": "ready, carried, worn or dropped (default carried; a shield worn); a cestus strikes when worn",
    "at": "where a dropped item lies (the rules set it)",
    "damage": "its damage, like 2d6-1 (out of HTH; in HTH too for what is not on the dagger list)",
    "dagger_list": "true for the dagger list (dagger, main-gauche, dirk, poniard ...): usable in HTH, drawn "
    "with draw_dagger, striking with hth_damage. A weapon named Dagger without it is no dagger",
    "hth_damage": "a dagger-list weapon's HTH damage (the second damage column): required with dagger_list",
    "hth_usable": "true for the cestus (a weapon usable in HTH that is not on the dagger list, worn on the hand)",
    "hth_dx_mod": "the weapon's DX modifier in HTH (dirk -2, poniard -4; default 0)",
    "stops": "a shield's hits stopped (it takes that much off HTH DX and stops nothing in HTH)",
}

# What combatant_check.validate holds each item field to.
ITEM_TYPES: dict[str, dict[str, Any]] = {
    "damage": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "hth_damage": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "dagger_list": _BOOLEAN,
    "hth_usable": _BOOLEAN,
    "hth_dx_mod": _INTEGER,
    "stops": _INTEGER,
}

REACTIONS: dict[str, dict[str, Any]] = {
    "judo_throw": {
        "asked": "a Judo defender whose defense roll allows a throw, of its entrant",
        "choices": {
            "<hex>": "throw the entrant into this empty adjacent hex, e.g. 1,-1",
            "no_throw": "no throw: the free hit instead (the default)",
        },
    },
    "entry_dagger": {
        "asked": "a defender with a carried dagger when the entrant got in",
        "choices": {"dagger": "ready a dagger, free", "none": "do not (the default)"},
        # What _resume_dagger reads from respond's params.
        "params": {"item": "dagger: the id of the carried dagger-list weapon to ready (default the first)"},
    },
    "pin_ruling": {
        "asked": "the GM, for each pin attempt when the option pin_resolution is gm",
        "choices": {"pinned": "the pin holds", "not_pinned": "it does not (the default)"},
    },
}

# Simeth's MA 12 beats the troll's 10, so entry condition C1 holds; the troll has no Judo and no dagger,
# so the entry asks nothing.
FIRST_TURN = FirstTurn(
    name="Troll bridge",
    combatants=(
        {
            "id": "simeth",
            "name": "Simeth",
            "side": "heroes",
            "position": [0, 0],
            "facing": 0,
            "stats": {"st": 12, "dx": 12, "iq": 10, "adj_dx": 12, "ma": 12},
        },
        {
            "id": "troll",
            "name": "Troll",
            "side": "monsters",
            "position": [1, 0],
            "facing": 3,
            "stats": {"st": 30, "dx": 11, "iq": 7, "adj_dx": 11, "ma": 10},
        },
    ),
    plays=("simeth",),
    commands=(
        ("gm", "The GM starts turn 1 ...", {"type": "start_turn", "turn": 1}),
        ("gm", "... its movement phase ...", {"type": "start_phase", "phase": "movement"}),
        (
            "gm",
            "... and its action phase (Simeth, adjDX 12, acts first).",
            {"type": "start_phase", "phase": "action"},
        ),
        (
            "player",
            "Simeth (MA 12, faster than the troll: entry condition C1) tries to get into HTH. With server "
            "dice the troll's defense roll decides: Simeth may get in, or be knocked back (the action lost, "
            "perhaps with a free hit for the troll), so your own fight may go differently from here.",
            {"type": "tft.enter_hth", "combatant": "simeth", "target": "troll"},
        ),
    ),
)
