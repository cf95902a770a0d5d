"""Whose turn it is (4.0): any figure free to move in the movement phase; the head of the DX order in the
action phase; whoever a pending reaction asks. Read from `legal_actions`, so the two always agree."""

from __future__ import annotations

from typing import Any

from rules.acting import before_in_order, before_slots, gm_step, once_answered, slot, until
from rules.tft import figures as F
from rules.tft.dx_in_hth import initiative_dx
from rules.tft.initiative import head
from rules.tft.legal import legal_now
from rules.tft.movement import move_limit

MOVEMENT_COMMANDS = frozenset({"tft.move", "tft.dive_for_legs", "tft.join_hth"})
END_OF_MOVEMENT = until("phase", "until the GM starts the action phase")


def _dx_why(state: dict[str, Any], cid: str) -> str:
    dx = initiative_dx(state, cid)
    kind = "HTH attack DX" if F.group_of(state, cid) else "adjusted DX"
    waiting = [
        o
        for o in state.get("initiative", [])
        if o != cid
        and o in state["combatants"]
        and F.conscious(state["combatants"][o])
        and not F.action_spent(state, o)
    ]
    tied = [F.name(state, o) for o in waiting if initiative_dx(state, o) == dx]
    tie = f" (tied with {', '.join(tied)}, first by the roll-off)" if tied else ""
    return (
        f"{F.name(state, cid)} acts: {kind} {dx} is highest among those not yet acted this turn{tie} "
        "(4.0: one figure at a time, by DX)"
    )


def _mover_why(state: dict[str, Any], cid: str) -> str:
    c = state["combatants"][cid]
    left = max(0, move_limit(state, c) - F.tft_record(state, cid)["hexes_moved"])
    return (
        f"{F.name(state, cid)} may move: it is the movement phase and {left} of {move_limit(state, c)} hexes "
        "are left (the rules text sets no side order for movement)"
    )


def acting_now(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Who may or must act now, and why."""
    phase = state.get("phase")
    first = before_slots(
        state,
        "no turn has started: the GM starts the turn (start_turn) and its movement phase "
        "(start_phase movement)",
    )
    if first is not None:
        return first
    if phase == "movement":
        movers = [cid for cid in state["combatants"] if MOVEMENT_COMMANDS & set(legal_now(state, cid))]
        if movers:
            return [slot(state, cid, _mover_why(state, cid), END_OF_MOVEMENT, "movement") for cid in movers]
        return [
            gm_step(
                state,
                "no figure can move any more this phase: the GM starts the action phase (start_phase action)",
                "start the action phase",
            )
        ]
    if phase == "action":
        h = head(state)
        if h is not None and "tft.pass" in legal_now(state, h):
            who = F.name(state, h)
            return [
                slot(
                    state,
                    h,
                    _dx_why(state, h),
                    until("action", f"until {who} takes an action or passes"),
                    "action: head of the order",
                )
            ]
        return [
            gm_step(
                state,
                "every figure has taken its action this turn: the GM starts the next turn (start_turn)",
                "start the next turn",
            )
        ]
    if phase is None:
        return [
            gm_step(
                state,
                f"turn {state['turn']} has started and no phase yet: the GM starts its movement phase "
                "(start_phase movement)",
                "start the movement phase",
            )
        ]
    return [
        gm_step(
            state,
            f"the {phase} phase has no actions in TFT: the GM starts the movement or the action phase",
            "start the movement or the action phase",
        )
    ]


def next_slot(state: dict[str, Any], cid: str) -> str | None:
    """When this figure will next act, in a sentence; None when it acts now."""
    c = state["combatants"].get(cid)
    if c is None or state.get("closed"):
        return None
    who = F.name(state, cid)
    if not F.conscious(c):
        return (
            f"{who} is {'dead' if 'dead' in c.get('conditions', []) else 'unconscious'} and takes no action"
        )
    if any(e["combatant"] == cid for e in acting_now(state)):
        return None
    wait = once_answered(state)
    phase = state.get("phase")
    by_dx = f"in the action phase, by DX ({who}'s is now {initiative_dx(state, cid)})"
    if phase == "action":
        if F.action_spent(state, cid):
            return (
                f"{who} has used this turn's action ({state['actions_spent'][cid]}); next turn: movement, "
                f"then {by_dx}"
            )
        order = state.get("initiative", [])
        if cid not in order:
            return f"{who} is not in this turn's action order; next turn, {by_dx}"
        still = [
            o
            for o in order
            if o in state["combatants"]
            and F.conscious(state["combatants"][o])
            and not F.action_spent(state, o)
        ]
        return before_in_order(state, order, cid, still) + wait
    if phase == "movement":
        why = "is in HTH and does not move" if c.get("group") else "cannot move any more this phase"
        return f"{who} {why}; {who} acts {by_dx}{wait}"
    return f"{who} moves in the movement phase and acts {by_dx}{wait}"
