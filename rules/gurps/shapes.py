"""The JSON shape of gurps's part of the state (rules/json_shapes.py), as rules/gurps/state.py folds it
(spec section 3), and its reactions' `resume`: a defence's attack, an evade's path, a GM ruling's
contest, where a fallen grappler lands."""

from __future__ import annotations

from rules.json_shapes import BOOL, CELL, INT, STR, list_of, map_of, nullable, record, said

IDS = list_of(STR)

FIGHTER = record(
    {
        "cc_turns_completed": said(INT, "Close-combat turns it completed."),
        "entered_this_maneuver": said(BOOL, "It entered close combat this maneuver."),
        "attacks_this_maneuver": said(INT, "Attacks made this maneuver."),
        "maneuver": said(nullable(STR), "Its maneuver this turn; null: none yet."),
        "maneuver_turn": said(nullable(INT), "The turn of that maneuver."),
        "movement_left": said(INT, "Hexes of movement left."),
        "began_in_hex": said(nullable(STR), 'The shared hex ("q,r") it began its turn in; null: none.'),
        "readied": said(list_of(STR), "Items readied this turn."),
        "turn_over": said(BOOL, "Its own turn is over."),
        "retreat_turn": said(nullable(INT), "The turn it last retreated; null: never."),
    },
    about="Per-combatant close-combat bookkeeping.",
)

RULES_STATE = record(
    {
        "hexes": map_of(
            record(
                {
                    "at": said(CELL, "The hex."),
                    "occupants": map_of(
                        record(
                            {
                                "entry_edge": said(INT, "The hex side it came in by."),
                                "declared_adjacent": said(BOOL, "It declared itself adjacent, not sharing."),
                            }
                        ),
                        "combatant id in the hex",
                    ),
                },
                about="A hex shared in close combat (halves).",
            ),
            '"q,r" hex',
        ),
        "grapples": said(
            list_of(
                record({"grappler": said(STR, "Who grapples."), "grappled": said(STR, "Who is grappled.")})
            ),
            "The grapples held.",
        ),
        "assists": said(
            list_of(
                record(
                    {
                        "helper": said(STR, "Who helps."),
                        "lead": said(STR, "Whom it helps."),
                        "target": said(STR, "Their target."),
                        "action": said(STR, "The action helped."),
                        "owed_turn": said(INT, "The turn the help is owed."),
                    }
                )
            ),
            "Team takedowns and pins under way.",
        ),
        "fighters": map_of(FIGHTER, "combatant id"),
        "current": said(nullable(STR), "The combatant whose own turn runs; null: none."),
        "turn": said(INT, "The turn number."),
    },
    about="gurps's part of the state (rules/gurps/state.py); pins are the common state's.",
)

RESUME = {
    "anyOf": [
        record(
            {
                "attacker": said(STR, "Who hit."),
                "target": said(STR, "Who defends."),
                "attack": said(STR, "The attack."),
                "weapon": said(STR, 'The weapon\'s name ("grapple" for one).'),
                "damage": said(nullable(STR), "The weapon's damage; null: none."),
                "attack_margin": said(INT, "The attack roll's margin."),
            },
            about="A defence against a hit (rules/gurps/attacks.py).",
        ),
        record(
            {
                "action": said(
                    {"type": "string", "enum": ["takedown", "pin", "break_free", "grapple"]}, "The contest."
                ),
                "lead": said(STR, "Who leads it."),
                "target": said(STR, "Against whom."),
            },
            {
                "participants": said(IDS, "The lead and the helpers."),
                "to": said(nullable(CELL), "Where the foe falls; null: not said."),
            },
            about="A contest the GM rules on (base_grapple_mode gm, rules/gurps/grappling.py).",
        ),
        record(
            {"fallen": said(STR, "The grappler who falls."), "at": said(CELL, "The hex it falls from.")},
            about="Where a failed takedown's grappler lands (rules/gurps/grappling.py).",
        ),
        record(
            {
                "mover": said(STR, "Who evades."),
                "foe": said(STR, "The foe asked."),
                "at": said(CELL, "The foe's hex."),
                "came_from": said(CELL, "The hex before it."),
                "onward": said(list_of(CELL), "The path after it."),
                "approach": said(STR, "From which arc it comes."),
                "entry_edge": said(INT, "The hex side it enters by."),
                "leaving": said(BOOL, "It leaves close combat with the foe."),
                "hexes": said(INT, "Hexes of the move."),
                "left_after": said(INT, "Movement left after it."),
                "modifiers": said(
                    list_of(
                        record({"value": said(INT, "The adjustment."), "reason": said(STR, "Its rule.")})
                    ),
                    "The GM's modifiers to the contest.",
                ),
            },
            {"then": said(IDS, "The foes asked next (crowded_evade each_foe).")},
            about="An evade through a foe's hex (rules/gurps/evading.py).",
        ),
    ]
}


EVENT_FIELDS = {
    "QuickContestResolved": {
        "sides": said(
            list_of(
                record(
                    {
                        "combatant": said(STR, "Whose roll."),
                        "effective": said(INT, "The effective skill rolled against."),
                        "roll": said(INT, "The roll."),
                        "margin": said(INT, "Its margin."),
                        "success": said(BOOL, "Whether it succeeded."),
                    },
                    {"helpers": said(IDS, "The lead's helpers (a team's side).")},
                )
            ),
            "Each side's success roll (rules/gurps/success_rolls.py).",
        )
    }
}
