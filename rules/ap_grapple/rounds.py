"""Starting a round (spec 4.1): the stuns that end, and the server's own start once everyone is done."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ConditionChanged, TurnStarted
from rules.ap_grapple.action_points import OUT_OF_ACTION
from rules.ap_grapple.options import option
from rules.ap_grapple.state import Rules, evolve_rules
from rules.working import folded


def stuns_ending(rules: Rules, turn: int) -> list[msgspec.Struct]:
    """`ConditionChanged` off for each stun whose last round is before `turn`."""
    return [
        ConditionChanged(cid, "stunned", False)
        for cid, entry in sorted((rules.get("stunned") or {}).items())
        if isinstance(entry.get("until_round"), int) and entry["until_round"] < turn
    ]


def swing_pending_refusal(rules: Rules) -> str | None:
    """Why a round may not start yet, or None."""
    swings = rules.get("pending_swings") or []
    if swings:
        return (
            "a round cannot start while a swing is pending (the grabber sends ap-grapple.swing_target first)"
        )
    return None


def _everyone_done(state: dict[str, Any], rules: Rules) -> bool:
    if not state["combatants"]:
        return False
    for cid, c in state["combatants"].items():
        out = cid in (rules.get("stunned") or {}) or any(
            x in (c.get("conditions") or []) for x in OUT_OF_ACTION
        )
        if not out and (rules.get("ap_left") or {}).get(cid, 0) > 0:
            return False
    return True


def with_next_round_if_done(state: dict[str, Any], events: list[msgspec.Struct]) -> list[msgspec.Struct]:
    """`events`, followed by the next round's start when after them every combatant has spent its AP,
    passed or is stunned, and no swing is pending (spec 4.1, OPTION auto_start_round)."""
    if not option(state, "auto_start_round"):
        return events
    # Only the ruleset's part is read after the events; who is out of action is judged as before them.
    after = folded(state, events, evolve_rules)["rules"]
    if after.get("pending_swings") or not _everyone_done(state, after):
        return events
    turn = state.get("turn", 0) + 1
    return [*events, TurnStarted(turn), *stuns_ending(after, turn)]
