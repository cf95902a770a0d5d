"""A pin shows in the pinned figure's `conditions` (issue 17), where a client looks, not only under `pins`:
`ConditionChanged {pinned}` on with every `PinApplied`, off with every end of the pin."""

from __future__ import annotations

from typing import Any

from events.common import ConditionChanged, PinApplied, PinBroken, PinReleased

PINNED = "pinned"


def pin_applied(holder: str, pinned: str, turn: int) -> list[Any]:
    return [PinApplied(holder, pinned, turn), ConditionChanged(pinned, PINNED, True)]


def pin_ended(end: PinReleased | PinBroken, pinned_present: bool = True) -> list[Any]:
    return [end, ConditionChanged(end.pinned, PINNED, False)] if pinned_present else [end]


def holder_removed(state: dict[str, Any], removed: str) -> list[Any]:
    """The common fold drops a removed holder's pin; the figure he held is no longer pinned."""
    return [
        ConditionChanged(p["pinned"], PINNED, False)
        for p in state.get("pins", [])
        if p["holder"] == removed and p["pinned"] in state["combatants"]
    ]
