"""The JSON shapes of tft's part of the state and of its reactions' `resume` (rules/json_shapes.py),
as rules/tft/state.py folds them (spec section 3)."""

from __future__ import annotations

from rules.json_shapes import BOOL, CELL, INT, STR, list_of, map_of, nullable, record, said

PREFERENCES = record(
    {
        "use_judo1_defense": said(BOOL, "Judo 1: defend with it (4.15)."),
        "judo2_shift_defense": said(INT, "Judo 2: the points shifted to defence."),
        "entry_dagger": said(STR, "Whether to ready a dagger when grappled."),
        "judo_throw": said(STR, "Whether to throw an entrant."),
        "hth_wish": said(STR, "What the figure wants of HTH."),
        "take_down_dice": said(INT, "Dice for a take-down."),
    },
    about="Standing HTH preferences (4.15, HthPreferencesSet).",
)

FIGURE = record(
    {
        "hexes_moved": said(INT, "Hexes moved this turn."),
        "move_path": said(list_of(CELL), "The hexes moved through this turn."),
        "movement_ended": said(BOOL, "Its movement is over this turn."),
        "hth_first_turn": said(nullable(INT), "The turn it entered HTH; null: not in HTH."),
        "prefs": PREFERENCES,
    },
    about="What tft keeps of a figure this turn.",
)

RULES_STATE = record(
    {
        "turn": said(INT, "The turn number."),
        "phase": said(nullable(STR), "The phase under way; null: none yet this turn."),
        "figures": map_of(FIGURE, "combatant id"),
        "consents": said(
            list_of(
                record(
                    {
                        "defender": said(STR, "Who consents."),
                        "entrant": said(STR, "Whom the defender lets in."),
                        "turn": said(INT, "The turn it holds for."),
                    },
                    about="HthConsentGiven (C4).",
                )
            ),
            "Consents to enter HTH this turn (C4).",
        ),
        "groups": map_of(
            record(
                {
                    "turn_formed": said(INT, "The turn the group formed."),
                    "standing": said(BOOL, "It fights standing (4.14)."),
                }
            ),
            "HTH group id",
        ),
        "groups_formed": said(INT, "HTH groups formed so far (their ids count on)."),
    },
    {
        "strike": record(
            {
                "order": said(list_of(STR), "Whom each roll is against, in order."),
                "rolled": said(INT, "Rolls made so far."),
            },
            about="A strike into HTH under way (4.13).",
        )
    },
    about="tft's part of the state (rules/tft/state.py).",
)

_ENTRY = {
    "engine": said({"type": "string", "enum": ["tft"]}, "The ruleset that resumes it."),
    "entrant": said(STR, "Who enters HTH."),
    "defender": said(STR, "Whom it enters on."),
    "way": said(STR, "How it enters."),
    "from": said(CELL, "The hex it came from."),
    "at": said(CELL, "The hex of the entry."),
    "total": said(INT, "The entry roll's total."),
}
RESUME = {
    "anyOf": [
        record(
            {
                **_ENTRY,
                "step": said({"type": "string", "enum": ["judo_throw", "entry_dagger"]}, "What is asked."),
            },
            about="An HTH entry waiting for the defender's throw or dagger (4.5, rules/tft/entering.py).",
        ),
        record(
            {
                "engine": said({"type": "string", "enum": ["tft"]}, "The ruleset that resumes it."),
                "step": said({"type": "string", "enum": ["pin_ruling"]}, "What is asked."),
                "holder": said(STR, "Who pins."),
                "pinned": said(STR, "Who would be pinned."),
            },
            about="A pin the GM rules on (pin_resolution gm, rules/tft/pins.py).",
        ),
    ]
}
