"""Whose turn it is (spec section 1, BASE): each combatant takes one own turn a second, in initiative order.
The figure whose own turn is running acts until the next one chooses a maneuver; the next to act is
the first in the initiative order who has not had a turn (any such figure, with no order set). The
server accepts a turn out of order (the GM's call), so `legal_actions` still offers it: every figure
named here has legal actions, not every figure with legal actions is named."""

from __future__ import annotations

from typing import Any

from rules.acting import before_in_order, before_slots, gm_step, once_answered, slot, until
from rules.gurps.combatant_stats import name
from rules.gurps.hex_sharing import rules_of
from rules.gurps.legal import actions_open
from rules.gurps.maneuvers import current_maneuver
from rules.gurps.situational_modifiers import fighter

END_OF_TURN = until("turn", "until the GM starts the next turn")
# One slot per figure and second: being next in the order and running one's own turn are the same
# opening, so choosing a maneuver tells nobody again.
OWN_TURN = "own turn"


def _not_had_turn(state: dict[str, Any]) -> list[str]:
    """Figures who may still begin their own turn this second, in initiative order if one is set."""
    order = [c for c in state.get("initiative") or [] if c in state["combatants"]] or list(
        state["combatants"]
    )
    return [c for c in order if "gurps.choose_maneuver" in actions_open(state, c)]


def acting_now(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Who may or must act now, and why."""
    first = before_slots(state, "no turn has started: the GM starts the first second (start_turn)")
    if first is not None:
        return first
    # Past before_slots nothing is pending, so what is open is what is legal.
    out = []
    cur = rules_of(state).get("current")
    running = (
        cur in state["combatants"] and current_maneuver(state, cur) is not None and actions_open(state, cur)
    )
    if running:
        m = str(current_maneuver(state, cur)).replace("_", " ")
        left = fighter(state, cur)["movement_left"]
        out.append(
            slot(
                state,
                cur,
                f"{name(state, cur)}'s own turn is running: {name(state, cur)} chose {m}"
                + (f", {left} hex{'es' if left != 1 else ''} of movement left" if left else ""),
                until(
                    "action",
                    f"until {name(state, cur)}'s turn ends: the next figure chooses a "
                    "maneuver, or the GM starts the next turn",
                ),
                OWN_TURN,
            )
        )
    waiting = [c for c in _not_had_turn(state) if c != cur]
    ends = f", which ends {name(state, cur)}'s" if running else ""
    if state.get("initiative"):
        out += [
            slot(
                state,
                c,
                f"{name(state, c)} is next in the initiative order to take a turn "
                f"(gurps.choose_maneuver{ends})",
                END_OF_TURN,
                OWN_TURN,
            )
            for c in waiting[:1]
        ]
    else:
        out += [
            slot(
                state,
                c,
                f"{name(state, c)} has not yet had a turn this second and may take it "
                f"(gurps.choose_maneuver{ends}); the GM has set no initiative order",
                END_OF_TURN,
                OWN_TURN,
            )
            for c in waiting
        ]
    if not out:
        return [
            gm_step(
                state,
                "every figure has had a turn this second: the GM starts the next turn (start_turn)",
                "start the next second",
            )
        ]
    return out


def next_slot(state: dict[str, Any], cid: str) -> str | None:
    """When this figure will next act, in a sentence; None when he acts now."""
    if (
        cid not in state["combatants"]
        or state.get("closed")
        or any(e["combatant"] == cid for e in acting_now(state))
    ):
        return None
    who = name(state, cid)
    wait = once_answered(state)
    if state.get("turn", 0) < 1:
        return f"{who} takes a turn once the GM starts the first second"
    spent = state.get("actions_spent", {})
    if cid in spent or rules_of(state).get("current") == cid:
        return f"{who} has had a turn this second and takes the next one after the GM starts the next turn"
    order = [c for c in state.get("initiative") or [] if c in state["combatants"]]
    if cid in order:
        return before_in_order(state, order, cid, _not_had_turn(state)) + wait
    return f"{who} cannot begin a turn now{wait}"
