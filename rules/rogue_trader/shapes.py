"""The JSON shape of rogue-trader's part of the state (rules/json_shapes.py), as
rules/rogue_trader/state.py folds it (spec section 3), and its reactions' `resume`: a charge, and a
push-back a model in the way stops."""

from __future__ import annotations

from rules.json_shapes import BOOL, CELL, INT, STR, list_of, map_of, nullable, record, said
from rules.rogue_trader.playing import STAT_TYPES

IDS = list_of(STR)

# The turn or round of each fact an event recorded about a model, once it happened.
_WHEN = {
    "charged_turn": "The turn it charged.",
    "moved_turn": "The turn it moved.",
    "ran_away_turn": "The turn it ran away.",
    "broke_off_turn": "The turn it broke off.",
    "fired_turn": "The turn it fired.",
    "failed_charge_turn": "The turn its charge failed.",
    "stationary_turn": "The turn it stayed stationary.",
    "resolved_round": "The last combat round it fought.",
    "pushed_back_round": "The turn it was pushed back.",
    "followed_up_round": "The turn it followed up.",
}

MODEL = record(
    {
        "unit": said(STR, "Its unit."),
        "side": said(nullable(STR), "Its side."),
        "special_attacks": said(
            nullable(STAT_TYPES["special_attacks"]), "A creature's attacks as determined; null: its stats'."
        ),
        "living": said(nullable(BOOL), "Living (a situation set); null: not said."),
        "uphill_over": said(IDS, "The enemies it is uphill of."),
        "behind_obstacle": said(BOOL, "It stands behind an obstacle."),
        "obstacle_against": said(IDS, "The enemies the obstacle is against."),
        "prepared_position": said(BOOL, "It holds a prepared position."),
        "coherency": said(STR, "ok, stray_rejoin, stray_in_combat or split."),
    },
    {
        **{k: said(INT, meaning) for k, meaning in _WHEN.items()},
        "charge_target": said(nullable(STR), "Whom it charged."),
        "pushed_back_by": said(IDS, "Who pushed it back."),
        "variant": said(STR, "A creature's variant as determined."),
    },
    about="What rogue-trader keeps of a model.",
)

UNIT = record(
    {
        "members": said(IDS, "Its models."),
        "leader": said(nullable(STR), "Its leader; null: none."),
        "split_from": said(nullable(STR), "The unit it split from; null: none."),
        "orders": said(STR, "Its orders."),
        "name": said(STR, "Its name."),
    },
    {
        "intentional": said(BOOL, "A split on purpose."),
        "pushed_back_round": said(INT, "The turn it was pushed back."),
        "coherency": record(
            {
                "turn": said(INT, "The turn of the check."),
                "main_body": said(IDS, "The models of its main body."),
                "strays": said(
                    list_of(
                        record({"model": said(STR, "The stray."), "status": said(STR, "What it is now.")})
                    ),
                    "Its strays.",
                ),
                "ruling_owed": said(BOOL, "The GM owes a ruling."),
            },
            about="The unit's last coherency check.",
        ),
    },
    about="A unit: its models, leader and orders.",
)

ALLOCATION = record(
    {
        "attack": said(STR, "The attack's kind (weapon, improvised, bite ...)."),
        "weapon": said(nullable(STR), "The weapon's id; null: none."),
        "hand": said(nullable(STR), "The hand it is held in; null: none."),
        "target": said(STR, "Whom it strikes."),
    },
    {
        "damage": said(STR, "Its damage."),
        "S": said(nullable(INT), "Its own strength."),
        "save_mod": said(INT, "Its save modifier."),
    },
)

PAIR = record(
    {
        "unit": said(STR, "A unit."),
        "vs": said(STR, "Its opponent."),
        "caused": said(INT, "Wounds it caused."),
        "received": said(INT, "Wounds it took."),
        "result": said(STR, "Its result."),
    }
)

RULES_STATE = record(
    {
        "turn": said(INT, "The turn number."),
        "sides": said(IDS, "The sides, in the order they joined."),
        "models": map_of(MODEL, "combatant id"),
        "units": map_of(UNIT, "unit id"),
        "contacts": said(list_of(IDS), "The pairs of models in base contact."),
        "groups": map_of(IDS, "close-combat group id"),
        "charge": said(
            nullable(
                record(
                    {
                        "charger": said(STR, "Who charges."),
                        "target": said(nullable(STR), "Whom."),
                        "start": said(nullable(CELL), "Where it started."),
                        "path": said(list_of(CELL), "Its path."),
                        "terrain_divisor": said(INT, "The terrain's divisor of its move."),
                        "reach": said(nullable(INT), "How far it may go."),
                        "ran": said(IDS, "Targets that ran away."),
                        "turn": said(INT, "The turn of the charge."),
                    }
                )
            ),
            "The charge under way; null: none.",
        ),
        "allocations": map_of(
            record(
                {
                    "round": said(INT, "The round."),
                    "allocations": said(list_of(ALLOCATION), "Its attacks."),
                }
            ),
            "combatant id (this round's attacks)",
        ),
        "owed": said(
            record(
                {
                    "push_back": map_of(
                        record({"round": said(INT, "The round."), "models": said(IDS, "The models owed.")}),
                        "unit id",
                    ),
                    "follow_up": map_of(
                        record(
                            {
                                "round": said(INT, "The round."),
                                "followers": map_of(IDS, "follower id"),
                                "may_hold_without_test": said(BOOL, "It may hold without a test."),
                            }
                        ),
                        "unit id",
                    ),
                }
            ),
            "Push-backs and follow-ups owed.",
        ),
        "results": map_of(
            record(
                {
                    "round": said(INT, "The round."),
                    "result": said(STR, "Its result."),
                    "group": said(nullable(STR), "The group."),
                }
            ),
            "unit id",
        ),
    },
    {
        "phase_turn": said(INT, "The turn of the phase under way."),
        "last_round": said(
            record(
                {
                    "round": said(INT, "The round."),
                    "group": said(nullable(STR), "The group."),
                    "pairs": said(list_of(PAIR), "The tallies, pair by pair."),
                    "results": map_of(STR, "unit id"),
                }
            ),
            "The last combat round resolved.",
        ),
    },
    about="rogue-trader's part of the state (rules/rogue_trader/state.py).",
)

RESUME = {
    "anyOf": [
        record(
            {"charger": said(STR, "Who charges."), "target": said(STR, "The model charged.")},
            about="A charged model's response (rules/rogue_trader/charging.py).",
        ),
        record(
            {
                "unit": said(STR, "The unit pushed back."),
                "movers": said(IDS, "Its models still to move, from the one stopped on."),
                "per_model": map_of(
                    record(
                        {},
                        {
                            "terrain_divisor": said(INT, "The terrain's divisor of its move."),
                            "stop_after": said(INT, "Hundredths of an inch it stops after."),
                        },
                    ),
                    "model id (the command's settings)",
                ),
                "rulings": map_of(
                    record(
                        {},
                        {
                            "to": said(CELL, "Where the GM set it down."),
                            "stop_after": said(INT, "Hundredths of an inch it stops after."),
                        },
                    ),
                    "model id (the GM's answers so far)",
                ),
                "followers": map_of(map_of(IDS, "model id (the enemies it touched)"), "unit id"),
                "model": said(STR, "The model stopped."),
                "blocker": said(STR, "The model in its way."),
                "meets_after": said(INT, "Hundredths of an inch it goes before meeting it."),
            },
            about="A push-back stopped by a model in the way (rules/rogue_trader/aftermath.py).",
        ),
    ]
}


EVENT_FIELDS = {
    "RtAttacksAllocated": {"allocations": said(list_of(ALLOCATION), "Every attack of the model this round.")},
    "RtCombatRoundResolved": {"pairs": said(list_of(PAIR), "The tallies, pair by pair.")},
    "RtCreatureVariantDetermined": {
        "attacks": said(
            STAT_TYPES["special_attacks"], "The creature's attacks, its variant's claws included."
        )
    },
}
