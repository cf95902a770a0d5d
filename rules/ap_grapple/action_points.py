"""Action points (§Intro; spec sections 1 and 3): the budget, spending it, and who may act now."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionSpent
from rules.ap_grapple.combatants import is_stunned, name_of, stun_until
from rules.ap_grapple.events import APSpent
from rules.ap_grapple.options import option
from rules.ap_grapple.state import DEFAULT_AP_PER_ROUND

# Conditions that take a combatant out of the round's order, like a stun (spec 4.1).
OUT_OF_ACTION = ("stunned", "unconscious", "dead")


def ap_left(state: dict[str, Any], cid: str) -> int:
    """AP the combatant has left this round."""
    rules = state["rules"]
    return (rules.get("ap_left") or {}).get(cid, ap_per_round(state, cid))


def ap_per_round(state: dict[str, Any], cid: str) -> int:
    """The combatant's AP budget per round."""
    return (state["rules"].get("ap_per_round") or {}).get(cid, DEFAULT_AP_PER_ROUND)


def pending_swing(state: dict[str, Any], attacker: str) -> dict[str, Any] | None:
    """The swing this combatant owes, if any."""
    return next(
        (p for p in state["rules"].get("pending_swings") or [] if p.get("attacker") == attacker), None
    )


def spend(
    state: dict[str, Any], cid: str, amount: int, why: str, *, all_spent_why: str
) -> list[msgspec.Struct]:
    """`APSpent`, followed by `ActionSpent` when nothing is left (spec 4.2 step 2)."""
    remaining = ap_left(state, cid) - amount
    events: list[msgspec.Struct] = [APSpent(cid, state["turn"], amount, remaining, why)]
    if remaining == 0:
        events.append(ActionSpent(cid, state["turn"], all_spent_why))
    return events


def is_out_of_round(state: dict[str, Any], cid: str) -> bool:
    """Stunned (or worse): counts as passed for starting the next round."""
    c = state["combatants"].get(cid) or {}
    return is_stunned(state, cid) or any(x in (c.get("conditions") or []) for x in OUT_OF_ACTION)


def acting_now(state: dict[str, Any]) -> str | None:
    """Under strict initiative, the first combatant in the order with AP left who is not out of the round."""
    for cid in state.get("initiative") or []:
        if cid in state["combatants"] and ap_left(state, cid) > 0 and not is_out_of_round(state, cid):
            return cid
    return None


def actor_problems(state: dict[str, Any], cid: str) -> list[str]:
    """What stops this combatant from starting an action now (each in plain words)."""
    name = name_of(state, cid)
    problems: list[str] = []
    if state.get("turn", 0) < 1:
        problems.append("no round has started yet (the GM starts round 1 with start_turn)")
    if is_stunned(state, cid):
        until = stun_until(state, cid)
        problems.append(
            f"{name} is stunned"
            + (f" until the end of round {until}" if until else "")
            + " and may spend no AP"
        )
    if pending_swing(state, cid):
        # The swing is answered as the question it is (respond, offered to whoever is asked) or by its command.
        problems.append(
            f"{name} must first swing the enemy pulled off balance (respond to the swing question, or "
            "ap-grapple.swing_target)"
        )
    if option(state, "strict_initiative"):
        if not state.get("initiative"):
            problems.append("strict initiative is on and the GM has not set an initiative order")
        else:
            first = acting_now(state)
            if first != cid:
                who = name_of(state, first) if first else "nobody"
                problems.append(f"strict initiative: it is {who}'s turn to act, not {name}'s")
    return problems
