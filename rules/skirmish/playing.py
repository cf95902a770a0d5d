"""What a player's guide says of skirmish beyond its commands, options and events (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.skirmish.charts import RESULTS

# A turn is the activation deck: the GM draws cards (skirmish.draw_card); there are no phases.
PHASES: tuple[str, ...] = ()

STATS: dict[str, str] = {
    "street_fighter": "true or false: +10 to parry, counterstrike and damage evaluation",
    "speedy": "true or false: +10 to evade",
    "wound_level": "none, light, serious, critical or mortal: parry modifiers",
    "hth_weapon": "sword, rifle_bayonet, other or none: damage evaluation",
    "morale": "1-100 (absent: the GM tests): the attacker's morale in a grapple",
    "move_in": "inches per move: the reach check and evade distance",
}

_CHART = {r: "the chart's result" for r in RESULTS}

REACTIONS: dict[str, dict[str, Any]] = {
    "hth_defence": {"asked": "the defender struck at, when more than one defence is open",
                    "choices": {"parry": "parry the blow (the default)", "evade": "step out of reach"}},
    "damage_result": {"asked": "the GM, with no damage_chart option", "choices": _CHART},
    "fall_result": {"asked": "the GM, with no fall_chart option", "choices": _CHART},
    "morale": {"asked": "the GM, with morale_mode gm or a figure without morale",
               "choices": {"pass": "the test is passed (the default)", "fail": "it is failed"}},
}
