"""DAMAGE EVALUATION (spec 4.7) and what a result does to a figure: wound level, unconscious, dead."""

from __future__ import annotations

from typing import Any

from events.common import ConditionChanged, Wounded
from events.dice import Modifier
from rules.skirmish.charts import CHART_CHOICES, look_up
from rules.skirmish.events import DamageEvaluated, DamageResultAwaited, WoundLevelChanged
from rules.skirmish.figures import WOUND_LEVELS, name_of, wound_level
from rules.skirmish.gm_asks import ask_gm
from rules.skirmish.options import option
from rules.skirmish.prisoners import liberate_if_captor_down
from rules.skirmish.rolling import roller_for
from rules.skirmish.tables import DAMAGE_MODIFIERS, modifiers_for
from rules.working import Working

DAMAGE_REACTION = "damage_result"


def evaluate(w: Working, striker: str, target: str, then: dict[str, Any]) -> bool:
    """Roll the striker's damage against the target and apply the chart's result. Without a chart (or with no
    row for the total) ask the GM and return True: the flow pauses, and `then` says how it goes on."""
    roller = roller_for(w, striker, target)
    chart = option(w.state, "damage_chart")
    roll = w.dice.roll(1, 100, "damage evaluation", combatant=striker)
    mods = [Modifier(v, r) for v, r in modifiers_for(DAMAGE_MODIFIERS, roller)]
    total = roll.sum + sum(m.value for m in mods)
    result = look_up(chart, total)
    w.emit(roll.event(modifiers=mods, outcome=result or "awaiting the GM's chart result"))
    w.emit(DamageEvaluated(striker, target, total, result))
    if result is None:
        ask_gm(
            w,
            DamageResultAwaited(striker, target, total),
            DAMAGE_REACTION,
            CHART_CHOICES,
            "skirmish.record_damage_result",
            {**then, "striker": striker, "target": target, "total": total},
            f"{name_of(w.state, striker)}'s damage evaluation against {name_of(w.state, target)} is {total}: "
            "what does the damage chart give?",
        )
        return True
    apply_result(w, target, result, source=striker)
    return False


def apply_result(w: Working, target: str, result: str, source: str) -> None:
    """What a chart result does (spec 4.7 DECISIONs): a wound level moves by `wound_update`; unconscious and dead
    are conditions that leave the wound level alone; no_effect changes nothing."""
    if target not in w.state["combatants"] or result == "no_effect":
        return
    if result in ("unconscious", "dead"):
        if result not in w.combatant(target).get("conditions", []):
            w.emit(ConditionChanged(target, result, True))
        liberate_if_captor_down(w)
        return
    current = wound_level(w.state, target)
    now = WOUND_LEVELS.index(current)
    if option(w.state, "wound_update") == "step_up":
        new = min(now + 1, len(WOUND_LEVELS) - 1)
    else:
        new = max(now, WOUND_LEVELS.index(result))
    if new != now:
        w.emit(
            WoundLevelChanged(target, current, WOUND_LEVELS[new], source), Wounded(target, new - now, source)
        )
