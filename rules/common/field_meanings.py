"""What a command field of a given name means in every ruleset's commands, unless its own
`msgspec.Meta(description=...)` says otherwise: the guides (server/guides/guide.py) and /openapi.json read it."""

from __future__ import annotations

COMMAND_FIELD_MEANINGS: dict[str, str] = {
    "combatant": "The id of the combatant who acts.",
    "target": "The id of the combatant acted on.",
    "targets": "The ids of the combatants acted on.",
    "to": "Where to: a position in the encounter's geometry ([q, r] hex, or [x, y] in 0.01 inch).",
    "path": "The way taken, position by position in the encounter's geometry.",
    "facing": "Facing: a hex direction 0-5, or degrees 0-359 on a table top.",
    "modifiers": "Extra modifiers of the roll, each {value, reason}.",
    "value": "The modifier's value, added to the roll.",
    "reason": "Why: written into the log and the audit.",
    "weapon": "The id of the weapon (an item of the combatant), or its natural attack.",
    "item": "The id of an item of the combatant.",
    "unit": "The id of the unit, or of any model in it.",
    "group": "The id of a close-combat group (GET /encounters/{id}/state lists them in `groups`), or of any model in it.",
    "seq": "An event's position in the encounter's stream (1 = EncounterCreated).",
    "phase": "The phase of the turn, one of the ruleset's phases.",
    "reaction": "The id of the reaction being answered (from ReactionRequested).",
    "choice": "The chosen option, one of the reaction's options.",
    "params": "The answer's extra fields, as the reaction asks.",
    "options": "Option name to value.",
    "result": "The result, one of those the ruleset lists.",
    "force": "Do it even where the ruleset would refuse the order (the GM's override).",
    "helpers": "The ids of the combatants who help.",
    "to_hit_target": "The to-hit target the GM states (only with the option to_hit: gm_target).",
    "reactions": "Standing orders: reaction kind to the choice given without asking.",
}
