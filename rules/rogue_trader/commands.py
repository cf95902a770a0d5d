"""The ruleset's commands (spec §4): `rogue-trader.<verb>`. Distances are integer hundredths of an inch."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from rules.interface import Command

# One entry of allocate_attacks' `allocations`, as rules/rogue_trader/allocation.py validate reads it (a
# dict there; its keys said here for /openapi.json).
ALLOCATION_SCHEMA: dict[str, Any] = {
    "required": ["target"],
    "properties": {
        "attack": {"type": "string", "description": "weapon, improvised, or a special attack's kind."},
        "weapon": {"type": ["string", "null"], "description": "A C-type weapon's id; null: none."},
        "hand": {"enum": ["R", "L", None], "description": "The hand it is struck with; null: none."},
        "target": {"type": "string", "description": "An enemy in base contact and in that attack's arc."},
    },
}

# Spec 4.1, 4.10, 4.12: difficult ground and turns divide a move; the GM gives the divisor.
TerrainDivisor = Annotated[
    int,
    msgspec.Meta(
        description=(
            "What the move is divided by for difficult ground and turns, 1 or more, as the GM gives it (1: open ground)."
        )
    ),
]


class Charge(Command, tag="rogue-trader.charge"):
    """4.1: declare a charge; the target answers (4.2) before the charger moves."""

    combatant: str
    target: str
    path: list[list[int]] = []
    terrain_divisor: TerrainDivisor = 1


class Retarget(Command, tag="rogue-trader.retarget"):
    """4.3: after the target ran, go for another enemy (or, without `target`, for none)."""

    combatant: str
    target: str | None = None


class AllocateAttacks(Command, tag="rogue-trader.allocate_attacks"):
    """4.4: every attack of the model this round, each with its target; optional free turn first."""

    combatant: str
    round: Annotated[
        int, msgspec.Meta(description="The round you allocate for: this turn's number (one round a turn).")
    ]
    allocations: Annotated[
        list[Annotated[dict[str, Any], msgspec.Meta(extra_json_schema=ALLOCATION_SCHEMA)]],
        msgspec.Meta(
            description=(
                "Every attack of the model, in the order struck: each {attack: weapon, improvised or a special attack's "
                "kind, weapon: a C-type weapon's id or null, hand: R, L or null, target: an enemy in base contact and in "
                "that attack's arc}."
            )
        ),
    ]
    turn_to_face: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "With the option turn_to_face_in_round: the id of an enemy in contact to turn and face first, free, when "
                "none is in the model's front arc; null: no turn."
            )
        ),
    ] = None


class ResolveRound(Command, tag="rogue-trader.resolve_round"):
    """4.5: fight one combat group's round. `force_defaults` (GM): missing allocations take the default."""

    group: str
    force_defaults: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "GM: true gives every model still without an allocation the default (all attacks on the enemy it "
                "charged, else the lowest id) instead of waiting."
            )
        ),
    ] = False


class PushBack(Command, tag="rogue-trader.push_back"):
    """4.10: push back a losing unit; `per_model: {id: {terrain_divisor, stop_after}}`."""

    unit: str
    per_model: Annotated[
        dict[str, dict[str, int]],
        msgspec.Meta(
            description=(
                'By model id, what limits its 2" push back: terrain_divisor (1 or more) and stop_after (hundredths of an '
                "inch, 0 or more: a door, wall or model halts it there, still pushed back); a model not named goes the "
                'full 2".'
            )
        ),
    ] = {}


class FollowUp(Command, tag="rogue-trader.follow_up"):
    """4.11: a winning unit follows up or tries to hold; `targets: {model: enemy}` picks among several."""

    unit: str
    choice: Annotated[
        str,
        msgspec.Meta(
            description=(
                "follow: the unit follows up the pushed-back enemy; hold: it tries to stay (an Ld test, none for models "
                "holding an obstacle or a prepared position)."
            )
        ),
    ]
    targets: Annotated[
        dict[str, str],
        msgspec.Meta(
            description=(
                "Model id to the id of the enemy it follows, where it could follow several (omitted: the nearest)."
            )
        ),
    ] = {}


class BreakOff(Command, tag="rogue-trader.break_off"):
    """4.12: a unit leaves close combat (rout test, free blows, double-pace retreat)."""

    unit: str
    distance: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "How far each model retreats, in hundredths of an inch, at most its double move (2 x M); null: the whole "
                "double move."
            )
        ),
    ] = None
    terrain_divisor: TerrainDivisor = 1


class SetSituation(Command, tag="rogue-trader.set_situation"):
    """4.14 (GM): uphill, obstacle, prepared position, living; omitted fields keep their value."""

    combatant: str
    # Each: null keeps the model's current value.
    uphill_over: Annotated[
        list[str] | None,
        msgspec.Meta(
            description=(
                "The ids of the models this one stands higher than (slope, stair, rampart): +1 to hit them."
            )
        ),
    ] = None
    behind_obstacle: Annotated[
        bool | None,
        msgspec.Meta(
            description=(
                "Behind a defended obstacle (hedge, wall, barricade): -1 to hit it (see obstacle_against)."
            )
        ),
    ] = None
    obstacle_against: Annotated[
        list[str] | None,
        msgspec.Meta(
            description=("The ids of the attackers the obstacle stands against; empty: every attacker.")
        ),
    ] = None
    prepared_position: Annotated[
        bool | None,
        msgspec.Meta(
            description=(
                "Holds a prepared defensive position: its unit may hold instead of following up, without a test."
            )
        ),
    ] = None
    living: Annotated[
        bool | None,
        msgspec.Meta(
            description=(
                "A living creature (tail attacks do D6 damage; against a non-living one, the option "
                "nonliving_tail_damage)."
            )
        ),
    ] = None
    frenzied: Annotated[bool | None, msgspec.Meta(description="Frenzied: +2 to hit in close combat.")] = None


RT_COMMANDS: tuple[type[Command], ...] = (
    Charge,
    Retarget,
    AllocateAttacks,
    ResolveRound,
    PushBack,
    FollowUp,
    BreakOff,
    SetSituation,
)
