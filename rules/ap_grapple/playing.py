"""What a player's guide says of ap-grapple beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.ap_grapple.combatants import INTEGER_STATS
from rules.interface import FirstTurn

# A round is a turn (`start_turn`); the ruleset has no phases.
PHASES: tuple[str, ...] = ()

STATS: dict[str, str] = {
    "weight_lb": "body weight in pounds, above 0, gear not counted: grab percentage and brawl ratio",
    "strength": "a whole number (exceptional strength such as 18/50 counts as 18): grab percentage, 3 lb a point",
    "ap_per_round": "action points each round (default 5)",
    "thac0": "to-hit as the attacker",
    "ac": "armour class: to-hit as the defender",
    "hp": "hit points: damage from a swing into a barrier",
}
# rules/ap_grapple/combatants.py completed_combatant fills it in.
COMPLETED_STATS = ("ap_per_round",)
# What combatants.completed_combatant holds each stat to: whole numbers, weight above 0; exceptional
# strength may be sent as 18/50 and is kept as 18.
STAT_TYPES: dict[str, dict[str, Any]] = {
    **{k: {"type": "integer"} for k in INTEGER_STATS},
    "weight_lb": {"type": "integer", "exclusiveMinimum": 0},
    "ap_per_round": {"type": "integer", "minimum": 0},
    "strength": {
        "anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^\\s*18/([0-9]{1,2}|00)\\s*$"}]
    },
}
COMPLETED_STAT_TYPES: dict[str, dict[str, Any]] = {"strength": {"type": "integer"}}

REACTIONS: dict[str, dict[str, Any]] = {
    "swing_target": {
        "asked": "the grabber, after pulling the enemy off balance (or send ap-grapple.swing_target)",
        "choices": {
            "left": "into the open hex next to both, on the grabber's left",
            "right": "into the open hex next to both, on the right",
            "own_hex": "into the grabber's own hex (the default)",
            "in_place": "where the enemy stands (with barrier: true, against a wall)",
            "dir_<n>": "any other open hex next to the grabber (option swing_destinations)",
        },
        # The fields resume_swing reads from respond's params (owed_swing.ANSWER_FIELDS).
        "params": {"barrier": "true when the enemy is swung against a wall or barrier (needed for in_place)"},
    },
}

FIRST_TURN = FirstTurn(
    name="Wrestling in the mud",
    combatants=(
        {
            "id": "aldo",
            "name": "Aldo",
            "side": "heroes",
            "position": [0, 0],
            "facing": 0,
            "stats": {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10},
        },
        {
            "id": "berk",
            "name": "Berk",
            "side": "bandits",
            "position": [1, 0],
            "facing": 3,
            "stats": {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9},
        },
    ),
    plays=("aldo",),
    commands=(
        (
            "gm",
            "The GM starts round 1 (a round is a turn: every combatant gets its AP back).",
            {"type": "start_turn", "turn": 1},
        ),
        (
            "player",
            "Aldo makes a grab at Berk: 3 AP, a to-hit roll, then a d100 to pull Berk off balance (on a "
            "pull, Alice is asked where to swing Berk: answer with ap-grapple.swing_target).",
            {"type": "ap-grapple.make_a_grab", "combatant": "aldo", "target": "berk"},
        ),
    ),
)
