"""Whose turn it is (spec §1, seed turn sequence): the side whose player turn it is moves, charges and breaks
off in its movement phase; every model in contact fights in the close combat phase, whichever side owns the turn;
what is owed (a retarget, a push-back, a follow-up) comes first. Read from `legal_actions`, so the two agree."""

from __future__ import annotations

from typing import Any

from rules.acting import before_slots, gm_step, once_answered, slot, until
from rules.rogue_trader.legal import legal_actions
from rules.rogue_trader.models import active_side, contacts_of, is_dead, name, sides_in_order, turn

OWED = {
    "rogue-trader.retarget": "{who} must name a new target: the model it charged ran away (rogue-trader.retarget)",
    "rogue-trader.push_back": "{who}'s unit lost the round and must be pushed back (rogue-trader.push_back)",
    "rogue-trader.follow_up": "{who}'s unit won the round and must follow up or try to hold (rogue-trader.follow_up)",
}
OWED_UNTIL = until("action", "until it is done: the phase cannot end before")
# The GM's step after each phase: (what it is called, in words). The name is the step's slot id.
GM_STEPS = {
    None: ("start the movement phase", "the GM starts the movement phase (start_phase movement)"),
    "movement": (
        "start the shooting phase",
        "no model of side {side} may move, charge or break off now: the GM starts the shooting phase "
        "(start_phase shooting)",
    ),
    "shooting": (
        "start the close combat phase",
        "shooting is outside this chapter: the GM resolves it and starts the close combat phase "
        "(start_phase close_combat)",
    ),
    "close_combat": (
        "start the end phase",
        "every combat group has fought this round: the GM starts the end phase (start_phase end)",
    ),
    "end": (
        "start the next turn",
        "side {side}'s player turn is over: the GM starts the next turn (start_turn)",
    ),
}


def _entry(state: dict[str, Any], cid: str, legal: list[str]) -> dict[str, Any]:
    who = name(state, cid)
    owed = next((c for c in legal if c in OWED), None)
    if owed:
        return slot(state, cid, OWED[owed].format(who=who), OWED_UNTIL, f"owed: {owed}")
    if state.get("phase") == "close_combat":
        return slot(
            state,
            cid,
            f"{who} fights: its combat group has not fought this round (every model in contact "
            "fights, whichever side owns the turn)",
            until("phase", "until its combat group's round is resolved"),
            "close combat",
        )
    moves = " or ".join(c.removeprefix("rogue-trader.").replace("_", " ") for c in legal)
    return slot(
        state,
        cid,
        f"{who} may {moves}: it is side {active_side(state)}'s movement phase",
        until("phase", "until the GM starts the shooting phase"),
        "movement",
    )


def _acts(state: dict[str, Any], cid: str, legal: list[str]) -> bool:
    """Whether the model has something to send: one of the other side whose round waits only to be fought
    is waiting, since the active side's models resolve it (authority.command_actors); told "fights", its
    player found nothing to click."""
    if legal == ["rogue-trader.resolve_round"]:
        return state["combatants"][cid]["side"] == active_side(state)
    return bool(legal)


def acting_now(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Who may or must act now, and why."""
    first = before_slots(state, "no turn has started: the GM starts the first player turn (start_turn)")
    if first is not None:
        return first
    legal = {cid: legal_actions(state, cid) for cid in state["combatants"]}
    owing = [cid for cid, cmds in legal.items() if any(c in OWED for c in cmds)]
    actors = owing or [cid for cid, cmds in legal.items() if _acts(state, cid, cmds)]
    if actors:
        return [_entry(state, cid, legal[cid]) for cid in actors]
    phase = state.get("phase")
    opens, step = GM_STEPS.get(
        phase,
        ("start a phase", f"the GM starts a phase: movement, shooting, close_combat, end (now {phase!r})"),
    )
    return [gm_step(state, step.format(side=active_side(state)), opens)]


def _next_own_turn(state: dict[str, Any], side: str) -> int | None:
    order = sides_in_order(state)
    if side not in order:
        return None
    t = turn(state)
    return next(n for n in range(t + 1, t + len(order) + 1) if order[(n - 1) % len(order)] == side)


def next_slot(state: dict[str, Any], cid: str) -> str | None:
    """When this model will next act, in a sentence; None when it acts now."""
    c = state["combatants"].get(cid)
    if c is None or state.get("closed") or any(e["combatant"] == cid for e in acting_now(state)):
        return None
    who = name(state, cid)
    if is_dead(c):
        return f"{who} is dead"
    wait = once_answered(state)
    if turn(state) < 1:
        return f"{who} acts once the GM starts the first player turn"
    fights = (
        f"{who} is in contact and fights in this turn's close combat phase"
        if contacts_of(state, cid) and state.get("phase") in (None, "movement", "shooting")
        else f"{who} fights in any close combat phase while in base contact"
    )
    own = _next_own_turn(state, c["side"])
    if c["side"] == active_side(state) and state.get("phase") in (None, "movement"):
        return f"{who} may not move, charge or break off now; {fights}{wait}"
    when = (
        f"side {c['side']}'s next movement phase is in turn {own}" if own else f"side {c['side']} has no turn"
    )
    return f"{fights}; {when}{wait}"
