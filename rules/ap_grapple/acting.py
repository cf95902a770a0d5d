"""Whose turn it is in a round of action points (spec 4, 4.1): every combatant with AP left may act, in the
order commands arrive; under OPTION `strict_initiative` only the first in the order with AP left. Read
from `legal_commands`, so the two agree."""

from __future__ import annotations

from typing import Any

from rules.acting import before_in_order, before_slots, gm_step, once_answered, slot, until
from rules.ap_grapple.action_points import acting_now as first_in_order
from rules.ap_grapple.action_points import ap_left, ap_per_round, is_out_of_round, pending_swing
from rules.ap_grapple.combatants import is_stunned, name_of, stun_until
from rules.ap_grapple.legal import legal_commands
from rules.ap_grapple.options import option


def _round_end(state: dict[str, Any]) -> dict[str, Any]:
    return until(
        "round", f"until every combatant has spent or passed their AP and round {state['turn'] + 1} starts"
    )


def _why(state: dict[str, Any], cid: str) -> str:
    who = name_of(state, cid)
    if pending_swing(state, cid):
        return f"{who} must first swing the enemy {who} pulled off balance (ap-grapple.swing_target)"
    budget = f"{ap_left(state, cid)} of {ap_per_round(state, cid)} AP left in round {state['turn']}"
    if option(state, "strict_initiative"):
        return f"{who} acts: first in the initiative order with AP left ({budget}; strict initiative)"
    return f"{who} may act: {budget} (the server takes commands in the order they arrive)"


def acting_now(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Who may or must act now, and why."""
    first = before_slots(state, "no round has started yet: the GM starts round 1 (start_turn)")
    if first is not None:
        return first
    if option(state, "strict_initiative") and not state.get("initiative"):
        return [
            gm_step(
                state,
                "strict initiative is on: the GM sets the initiative order (set_initiative)",
                "set the initiative order",
            )
        ]
    actors = [cid for cid in state["combatants"] if legal_commands(state, cid)]
    if actors:
        ends = (
            until("action", f"until {name_of(state, actors[0])} has spent or passed all AP")
            if option(state, "strict_initiative") and not pending_swing(state, actors[0])
            else _round_end(state)
        )
        # The round is the slot: spending AP, a swing owed by one's own grab, keep it open.
        return [slot(state, cid, _why(state, cid), ends, "round") for cid in actors]
    return [
        gm_step(
            state,
            f"nobody can spend AP any more in round {state['turn']}: the GM starts round "
            f"{state['turn'] + 1} (start_turn)",
            "start the next round",
        )
    ]


def next_slot(state: dict[str, Any], cid: str) -> str | None:
    """When this combatant will next act, in a sentence; None when he acts now."""
    c = state["combatants"].get(cid)
    if c is None or state.get("closed") or any(e["combatant"] == cid for e in acting_now(state)):
        return None
    who = name_of(state, cid)
    wait = once_answered(state)
    turn = state.get("turn", 0)
    if turn < 1:
        return f"{who} acts once the GM starts round 1"
    if is_stunned(state, cid):
        end = stun_until(state, cid)
        return (
            f"{who} is stunned until the end of round {end} and acts again in round {end + 1}"
            if end
            else f"{who} is stunned until the GM lifts it"
        )
    if is_out_of_round(state, cid):
        return f"{who} is out of the fight ({', '.join(c.get('conditions') or [])})"
    if ap_left(state, cid) <= 0:
        return f"{who} has spent all AP this round; round {turn + 1} brings {ap_per_round(state, cid)} AP"
    order = state.get("initiative") or []
    if option(state, "strict_initiative") and cid in order:
        still = [
            o
            for o in order
            if o in state["combatants"] and ap_left(state, o) > 0 and not is_out_of_round(state, o)
        ]
        return before_in_order(state, order, cid, still) + wait
    if first_in_order(state) is None and option(state, "strict_initiative"):
        return f"{who} is not in the initiative order: the GM sets it (set_initiative)"
    return f"{who} may act{wait}"
