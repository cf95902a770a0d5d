"""The seed's and BASE tables, as data (one place; each rule module reads them from here).

Seed 003, "Close Combat": §Evading (the evade modifiers, the automatic evade), §Multiple Close Combat
(how many fighters); BASE GURPS where the seed relies on it (maneuvers, the grappled penalty,
grappling skills, postures, the 3-4 / 17-18 rule), each marked so.
"""

from __future__ import annotations

from typing import Any

# BASE list of grappling skills (spec section 2).
GRAPPLING_SKILLS = ("Wrestling", "Judo", "Sumo Wrestling")

# Spec section 2 DECISION: "lying down" is any of these postures.
LYING_POSTURES = frozenset({"prone", "on_back", "on_stomach"})

# Spec section 2: the postures a figure may have.
POSTURES = frozenset({"standing", "kneeling", "crouching", "sitting", "crawling"}) | LYING_POSTURES

# §Evading, literal: the mover's DX modifier by the foe's posture. Postures the seed does not name
# (crouching, sitting, crawling) give 0 (spec section 6 #5).
EVADE_POSTURE_MODIFIERS: dict[str, tuple[int, str]] = {
    "standing": (-5, "foe standing"),
    "kneeling": (-2, "foe kneeling"),
    "lying": (+5, "foe lying down"),
}

# §Evading, literal: the mover's DX modifier by where he approaches from (the foe's arc).
EVADE_APPROACH_MODIFIERS: dict[str, tuple[int, str]] = {
    "front": (0, "from the front"),
    "left": (+2, "from the left side"),
    "right": (+2, "from the right side"),
    "back": (+5, "from behind"),
}

# §Evading: "an advantage such as Flight or Super Jump ... you can evade him automatically".
AUTOMATIC_EVADE_TRAITS = ("flight", "super_jump")

# BASE maneuvers: how far each lets the figure move, and whether it may attack.
# movement: "full" = Basic Move, "half" = half of it (at least 1), "step" = 1 hex, "none" = 0.
MANEUVERS: dict[str, dict[str, Any]] = {
    "do_nothing": {"movement": "none", "attack": False},
    "move": {"movement": "full", "attack": False},
    "change_posture": {"movement": "none", "attack": False},
    "aim": {"movement": "step", "attack": False},
    "evaluate": {"movement": "step", "attack": False},
    "attack": {"movement": "step", "attack": True},
    "feint": {"movement": "step", "attack": False},
    "all_out_attack": {"movement": "half", "attack": True},
    "move_and_attack": {"movement": "full", "attack": True},
    "all_out_defense": {"movement": "step", "attack": False},
    "concentrate": {"movement": "step", "attack": False},
    "ready": {"movement": "step", "attack": False},
    "wait": {"movement": "step", "attack": False},
}

# §Entering a Foe's Hex: these maneuvers "can always run into a foe's hex and stop there"; with
# them leaving a foe's hex is a "move" (§Leaving), with the others a "step".
FULL_MOVE_MANEUVERS = frozenset({"move", "move_and_attack", "all_out_attack"})

# BASE (spec 4.9): the maneuvers a grapple may be made with.
GRAPPLE_MANEUVERS = frozenset({"attack", "all_out_attack", "move_and_attack"})

GRAPPLED_PENALTY = -4  # BASE: DX and DX-based skills while someone grapples you.

# Spec section 1 DECISION: automatic results by the 3d6 total.
ALWAYS_SUCCEEDS = frozenset({3, 4})

ALWAYS_FAILS = frozenset({17, 18})

# §Multiple Close Combat, literal: "up to two fighters ... in a takedown; up to three ... in a pin"
# (DECISION: the lead counts among them).
MAX_FIGHTERS: dict[str, int] = {"takedown": 2, "pin": 3}

# Where a neighbour lies relative to a figure's facing: (direction - facing) mod 6 -> arc.
# Spec section 1 and section 6 #5 (front-left and front-right count as front).
ARC_BY_OFFSET: dict[int, str] = {0: "front", 1: "front", 5: "front", 2: "left", 4: "right", 3: "back"}
