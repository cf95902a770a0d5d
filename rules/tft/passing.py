"""Passing: giving up one's action at one's slot (4.15)."""

from __future__ import annotations

from typing import Any

from events.common import ActionSpent
from events.dice import Dice
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.commands import Pass
from rules.tft.initiative import slot_problems


def pass_action(state: dict[str, Any], cmd: Pass, dice: Dice) -> list[Any]:
    c = F.get(state, cmd.combatant)
    refuse(slot_problems(state, c["id"], cmd.actor), f"{c['name']} may not pass now")
    return [ActionSpent(c["id"], state.get("turn", 0), "pass")]
