"""Consent (C4) and a figure's HTH preferences as standing orders (4.15; DESIGN "Reactions")."""

from __future__ import annotations

from typing import Any

from events.common import RulingMade, StandingOrdersSet
from events.dice import Dice
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.commands import ConsentHth, SetBackToWall, SetHthPreferences
from rules.tft.entry_conditions import c4_consent
from rules.tft.events import HthConsentGiven, HthPreferencesSet

# How a preference maps to a standing order of the reaction it answers (None: ask each time).
STANDING_ORDER_OF: dict[str, dict[str, str | None]] = {
    "entry_dagger": {"always": "dagger", "never": "none", "ask": None},
    "judo_throw": {"never": "no_throw", "ask": None},
}


def consent_hth(state: dict[str, Any], cmd: ConsentHth, dice: Dice) -> list[Any]:
    """The defender lets this entrant try to enter HTH this turn (C4); he still rolls the die."""
    d, e = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = [] if d["id"] != e["id"] else [f"{d['name']} cannot consent to their own entry"]
    if c4_consent(state, e, d, None).holds:
        # Given once, it holds for the turn: a second would only repeat the log (and stay on offer).
        problems.append(f"{d['name']} already agreed this turn to let {e['name']} try")
    refuse(problems, f"{d['name']} may not give consent")
    return [HthConsentGiven(d["id"], e["id"], state.get("turn", 0))]


def set_hth_preferences(state: dict[str, Any], cmd: SetHthPreferences, dice: Dice) -> list[Any]:
    """Record the preferences and mirror entry_dagger / judo_throw into standing orders."""
    c = F.get(state, cmd.combatant)
    if cmd.take_down_dice is not None and not 1 <= cmd.take_down_dice <= 20:
        raise BadCommand("take_down_dice must be 1-20", "take_down_dice")
    current = F.prefs(state, c["id"])
    given = {k: getattr(cmd, k) for k in current if getattr(cmd, k, None) is not None}
    merged = {**current, **given}
    events: list[Any] = [HthPreferencesSet(c["id"], **merged)]
    reactions = dict(c.get("reactions", {}))
    for kind, mapping in STANDING_ORDER_OF.items():
        if kind in given:
            order = mapping[given[kind]]
            if order is None:
                reactions.pop(kind, None)
            else:
                reactions[kind] = order
    if reactions != c.get("reactions", {}):
        events.append(StandingOrdersSet(c["id"], reactions))
    return events


def set_back_to_wall(state: dict[str, Any], cmd: SetBackToWall, dice: Dice) -> list[Any]:
    """GM: a wall or pit is behind the figure (C2, A21)."""
    c = F.get(state, cmd.combatant)
    text = f"{c['name']}'s back is {'to a wall' if cmd.back_to_wall else 'no longer to a wall'}"
    return [RulingMade(text, {"combatants": {c["id"]: {"stats": {"back_to_wall": cmd.back_to_wall}}}})]
