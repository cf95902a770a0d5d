"""The JSON shapes of ap-grapple's part of the state and of its reactions' `resume`
(rules/json_shapes.py), as rules/ap_grapple/state.py folds them (spec section 3)."""

from __future__ import annotations

from rules.json_shapes import BOOL, CELL, INT, STR, list_of, map_of, nullable, record, said

RULES_STATE = record(
    {
        "round": said(INT, "The round number."),
        "ap_per_round": map_of(INT, "combatant id (its AP budget, stats.ap_per_round)"),
        "ap_left": map_of(INT, "combatant id (AP left this round)"),
        "grips": said(
            list_of(
                record(
                    {
                        "attacker": said(STR, "Who holds the grip."),
                        "defender": said(STR, "Who is gripped."),
                        "stage": said(
                            {"type": "string", "enum": ["pulling", "swing_pending"]}, "Where it stands."
                        ),
                    }
                )
            ),
            "The grips held.",
        ),
        "pending_swings": said(
            list_of(
                record(
                    {
                        "attacker": said(STR, "Who swings."),
                        "defender": said(STR, "Who is swung."),
                        "destinations": map_of(CELL, "destination (in_place, left, right, own_hex)"),
                        "reaction": said(
                            nullable(STR), "The swing_target reaction asking where; null: not asked yet."
                        ),
                    }
                )
            ),
            "Swings owed after a pull off balance.",
        ),
        "stunned": map_of(
            record(
                {
                    "combatant": said(STR, "Who is stunned."),
                    "until_round": said(nullable(INT), "The round it ends; null: until the GM lifts it."),
                }
            ),
            "combatant id",
        ),
        "pulled": said(
            list_of(
                record(
                    {
                        "target": said(STR, "Who was pulled."),
                        "by": said(STR, "Who pulled."),
                        "from": said(CELL, "Where it stood."),
                        "to": said(CELL, "Where it went."),
                        "kind": said(STR, "The kind of pull."),
                        "barrier": said(BOOL, "A barrier stopped it."),
                    }
                )
            ),
            "This round's pulls.",
        ),
        "shared_hexes": map_of(list_of(STR), '"q,r" hex (the combatants sharing it)'),
        "declared": said(
            nullable(
                record(
                    {
                        "action": said(STR, "The action declared."),
                        "combatant": said(STR, "Who declared it."),
                        "targets": said(list_of(STR), "Its targets."),
                    }
                )
            ),
            "The last ActionDeclared, for the log.",
        ),
    },
    about="ap-grapple's part of the state (rules/ap_grapple/state.py).",
)

RESUME = record(
    {"attacker": said(STR, "Who grabs."), "defender": said(STR, "Who is grabbed.")},
    about="A grab's reaction (rules/ap_grapple/grab.py).",
)
