"""What a player's guide says of skirmish beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.interface import FirstTurn
from rules.skirmish.charts import RESULTS
from rules.skirmish.figures import HTH_WEAPONS, PRONOUNS, WOUND_LEVELS

# A turn is the activation deck: the GM draws cards (skirmish.draw_card); there are no phases.
PHASES: tuple[str, ...] = ()

STATS: dict[str, str] = {
    "street_fighter": "true or false: +10 to parry, counterstrike and damage evaluation",
    "speedy": "true or false: +10 to evade",
    "wound_level": (
        "none, light, serious, critical or mortal: the level the figure joins with; from then on this stat shows "
        "the level now, which the parry and damage modifiers read and every wound changes: rules.wound_levels.<id> "
        "(a GM rules on that)"
    ),
    "pronoun": "he, she or they (default they): how the log refers to the figure",
    "hth_weapon": "sword, rifle_bayonet, other or none: damage evaluation",
    "morale": "1-100 (absent: the GM tests): the attacker's morale in a grapple",
    "move_in": "inches per move: the reach check and evade distance",
}
# rules/skirmish/figures.py validate fills these in.
COMPLETED_STATS = ("street_fighter", "speedy", "wound_level", "hth_weapon")
# What figures.validate holds each stat to.
STAT_TYPES: dict[str, dict[str, Any]] = {
    "street_fighter": {"type": "boolean"},
    "speedy": {"type": "boolean"},
    "wound_level": {"enum": list(WOUND_LEVELS)},
    "pronoun": {"enum": list(PRONOUNS)},
    "hth_weapon": {"enum": list(HTH_WEAPONS)},
    "morale": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 100}, {"type": "null"}]},
    "move_in": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
}

_CHART = {r: "the chart's result" for r in RESULTS}

# The fields of combatant.items[] the rules read (issue 29 item 11).
ITEM_FIELDS: dict[str, str] = {
    "id": "the item's id",
    "name": "what the log calls it",
    "kind": "regular_weapon (the figure's hth_weapon counts while it holds one), grenade, special or other: a "
    "grapple makes the held regular weapon, grenades and special weapons drop (§GRAPPLING)",
    "state": "dropped once a grapple made the figure drop it (the rules set it); absent while held",
}

REACTIONS: dict[str, dict[str, Any]] = {
    "hth_defence": {
        "asked": "the defender struck at, when more than one defence is open",
        "choices": {"parry": "parry the blow (the default)", "evade": "step out of reach"},
        # The fields answer_defence reads from respond's params (flow.DEFENCE_PARAMS).
        "params": {
            "to": "evade: where the defender goes, [x, y] in hundredths of an inch, at most one move away (default "
            "a full move straight away from the attacker)",
            "facing": "evade: the facing, whole degrees 0-359, the defender ends with (default toward the attacker)",
        },
    },
    "damage_result": {"asked": "the GM, with no damage_chart option", "choices": _CHART},
    "fall_result": {"asked": "the GM, with no fall_chart option", "choices": _CHART},
    "morale": {
        "asked": "the GM, with morale_mode gm or a figure without morale",
        "choices": {"pass": "the test is passed (the default)", "fail": "it is failed"},
    },
}

# A deck of one card holding both figures, so that the drawn card is known in advance.
FIRST_TURN = FirstTurn(
    name="Farmhouse door",
    options={"deck": [{"card": "all", "combatants": ["hale", "voss"]}]},
    combatants=(
        {
            "id": "hale",
            "name": "Sgt Hale",
            "side": "allies",
            "position": [-100, 0],
            "facing": 0,
            "stats": {"street_fighter": True, "hth_weapon": "sword", "morale": 60, "move_in": 6},
            "items": [{"id": "sword", "kind": "regular_weapon", "name": "sword"}],
        },
        {
            "id": "voss",
            "name": "Pvt Voss",
            "side": "axis",
            "position": [0, 0],
            "facing": 0,
            "stats": {"hth_weapon": "rifle_bayonet", "speedy": True, "move_in": 6},
            "items": [{"id": "rifle", "kind": "regular_weapon", "name": "rifle and bayonet"}],
        },
    ),
    plays=("hale",),
    commands=(
        (
            "gm",
            "The GM starts turn 1 (skirmish has no phases: the deck decides who acts).",
            {"type": "start_turn", "turn": 1},
        ),
        (
            "gm",
            "The GM draws the next card: this deck has one, activating both figures.",
            {"type": "skirmish.draw_card"},
        ),
        (
            "player",
            "Sgt Hale strikes at Voss, who faces away: Voss' side is asked to parry or evade.",
            {"type": "skirmish.strike", "combatant": "hale", "target": "voss"},
        ),
    ),
)
