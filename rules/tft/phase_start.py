"""What the GM's `start_phase {action}` adds (4.0, 4.11, 4.14): standing checks, held pins, the order."""

from __future__ import annotations

from typing import Any

from events.common import InitiativeSet
from events.dice import Dice
from rules.tft.initiative import phase_order
from rules.tft.options import option
from rules.tft.pins import held_pins
from rules.tft.standing import standing_check, standing_groups
from rules.tft.state import evolve_rules
from rules.working import folded


def action_phase_events(state: dict[str, Any], dice: Dice) -> list[Any]:
    """Stay-standing and Take Down rolls group by group, PinHeld, then tie roll-offs and InitiativeSet."""
    events: list[Any] = []
    if option(state, "standing_in_hth"):
        for gid in standing_groups(state):
            events += standing_check(folded(state, events, evolve_rules), gid, dice)
    events += held_pins(folded(state, events, evolve_rules))
    return events + phase_order(folded(state, events, evolve_rules), dice)


def with_action_phase(state: dict[str, Any], common: list[Any], dice: Dice) -> list[Any]:
    """The common events of start_phase (an InitiativeSet among them is replaced by the tft order)."""
    kept = [e for e in common if not isinstance(e, InitiativeSet)]
    return kept + action_phase_events(folded(state, kept, evolve_rules), dice)
