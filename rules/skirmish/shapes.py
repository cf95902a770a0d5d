"""The JSON shape of skirmish's part of the state (rules/json_shapes.py), as rules/skirmish/state.py
folds it (spec section 3), and its reactions' `resume`: where an exchange goes on once answered."""

from __future__ import annotations

from rules.json_shapes import BOOL, STR, list_of, map_of, nullable, record, said

IDS = list_of(STR)

EXCHANGE = record(
    {
        "attacker": said(STR, "Who attacks."),
        "defender": said(STR, "Who defends."),
        "kind": said(STR, "strike or grapple."),
        "step": said(STR, "Where it stands (awaiting_defence, damage_eval ...)."),
    },
    {
        "options": said(IDS, "The defences offered."),
        "awaiting": said({"type": "string", "enum": ["damage", "fall", "morale"]}, "The GM result awaited."),
    },
    about="The hand-to-hand exchange under way.",
)

RULES_STATE = record(
    {
        "custom_deck": said(BOOL, "The encounter was created with its own deck."),
        "join_order": said(IDS, "The combatants in the order they joined."),
        "deck": said(
            list_of(
                record(
                    {"card": said(STR, "The card."), "combatants": said(IDS, "Whom it moves.")},
                    about="A card.",
                )
            ),
            "The deck.",
        ),
        "undrawn": said(IDS, "Cards not drawn this turn."),
        "drawn": said(IDS, "Cards drawn this turn."),
        "card": said(nullable(STR), "The card out; null: none."),
        "holders": said(IDS, "The combatants the card out moves, yet to act."),
        "fought": said(IDS, "Who has fought on this card."),
        "wound_levels": map_of(STR, "combatant id"),
        "exchange": said(nullable(EXCHANGE), "The exchange under way; null: none."),
        "prisoners": said(
            list_of(record({"prisoner": said(STR, "Who is held."), "captor": said(STR, "Who holds.")})),
            "Prisoners taken.",
        ),
        "holds": said(
            list_of(record({"holder": said(STR, "Who holds."), "held": said(STR, "Who is pinned.")})),
            "Pins held.",
        ),
    },
    about="skirmish's part of the state (rules/skirmish/state.py).",
)

RESUME = record(
    {
        "flow": said({"type": "string", "enum": ["strike", "grapple"]}, "The exchange it resumes."),
        "attacker": said(STR, "Who attacks."),
        "defender": said(STR, "Who defends."),
    },
    {
        "claims": said(IDS, "Figures claimed to face the wrong way (a defence asked, spec 6)."),
        "striker": said(STR, "Whose blow the GM's chart result is for."),
        "target": said(STR, "Whom it struck."),
        "total": said({"type": "integer"}, "The damage evaluation's or fall roll's total."),
        "after": said(
            {"type": "string", "enum": ["defender_blow", "defender_falls", "morale"]}, "The grapple's step."
        ),
    },
    about="An exchange waiting for a defence or for the GM's chart or morale result (rules/skirmish/flow.py).",
)
