"""Who may or must act now (`Ruleset.acting_now`): the entry shape and the parts every ruleset shares.

An entry is plain JSON:

    {"combatant": id | None,          # None: the GM's own step (start the next phase, draw a card ...)
     "asked_of": seat id | "gm",      # who sends the command: the combatant's seat, else the GM
     "why": "Simeth acts: ...",       # a sentence a player understands, naming the rule
     "until": {"kind": ..., "text": ...} | None,
     "reaction": reaction id | None,  # set for a pending reaction
     "slot": {"turn": n, "phase": str | None, "id": str}}  # what opened it

`slot` names what opened the entry: the turn and phase it belongs to and an id the ruleset gives
("movement", "action: head of the order", "reaction 17"). An entry keeps its slot while it stays
open, and a new opening has a new one, so "it is your turn" is told once per (combatant, slot) a
seat gains (docs/notifications.md "When you are told").

`until` says when the slot ends, where the ruleset knows: `kind` is one of UNTIL_KINDS and `text` a
phrase for people ("until Simeth takes an action or passes"). The server adds `deadline` (UTC text)
to a reaction's `until` when `reaction_timeout_s` is set: the clock is the server's, not the rules'.
"""

from __future__ import annotations

from typing import Any

from rules.wording import answer_words


def asked_of(state: dict[str, Any], combatant_id: str | None) -> str:
    """Who answers a reaction about this combatant: its controlling seat, else the GM."""
    if combatant_id is None:
        return "gm"
    seats = state["seats"]
    c = state["combatants"].get(combatant_id)
    if c and c.get("controller") in seats and not seats[c["controller"]].get("revoked"):
        return c["controller"]
    for seat in seats.values():
        if not seat.get("revoked") and combatant_id in seat["combatants"]:
            return seat["seat"]
    return "gm"


# What ends a slot: its reaction is answered; the combatant's action (or own turn) is done; the
# phase, turn or round ends; the next card is drawn.
UNTIL_KINDS = ("reaction", "action", "phase", "turn", "round", "card")


def name_of(state: dict[str, Any], cid: str | None) -> str:
    """A combatant's name for a sentence (its id if it has none)."""
    c = state["combatants"].get(cid or "") or {}
    return str(c.get("name") or cid)


def until(kind: str, text: str) -> dict[str, Any]:
    """When a slot ends."""
    assert kind in UNTIL_KINDS, kind
    return {"kind": kind, "text": text}


def opened(state: dict[str, Any], opens: str) -> dict[str, Any]:
    """What opens a slot: the state's turn and phase and the ruleset's id for it."""
    return {"turn": state.get("turn", 0), "phase": state.get("phase"), "id": opens}


def slot(
    state: dict[str, Any], cid: str, why: str, ends: dict[str, Any] | None, opens: str
) -> dict[str, Any]:
    """A combatant who may or must act now, sent by its seat (or the GM); `opens` the ruleset's id of
    what opened it (the same while it stays open)."""
    return {
        "combatant": cid,
        "asked_of": asked_of(state, cid),
        "why": why,
        "until": ends,
        "reaction": None,
        "slot": opened(state, opens),
    }


def gm_step(
    state: dict[str, Any], why: str, opens: str, ends: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The GM's own step when no combatant may act (start the next phase or turn, draw a card);
    `opens` names the step ("start the action phase")."""
    return {
        "combatant": None,
        "asked_of": "gm",
        "why": why,
        "until": ends,
        "reaction": None,
        "slot": opened(state, "gm: " + opens),
    }


def slot_key(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What makes an entry the same opening as another: who answers, for whom, and its slot."""
    s = entry.get("slot") or {}
    return (entry["asked_of"], entry["combatant"], s.get("turn"), s.get("phase"), s.get("id"))


def gained(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of `after` whose (seat, combatant, slot) `before` did not have: each one a seat is told."""
    was = {slot_key(e) for e in before}
    return [e for e in after if slot_key(e) not in was]


def reactions_acting(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per pending reaction: whoever is asked acts now, until it is answered (DESIGN.md "Reactions")."""
    out = []
    for p in state.get("pending", []):
        who = p.get("combatant")
        subject = name_of(state, who) if who else "the GM"
        question = p.get("question") or f"{p.get('kind')}: {', '.join(p.get('options') or [])}"
        default = p.get("default")
        out.append(
            {
                "combatant": who,
                "asked_of": p.get("asked_of", "gm"),
                "why": f"{subject} is asked ({question}); nothing else goes on meanwhile",
                "until": until(
                    "reaction",
                    "until it is answered" + (f" (default: {answer_words(default)})" if default else ""),
                ),
                "reaction": p.get("id"),
                "slot": opened(state, f"reaction {p.get('id')}"),
            }
        )
    return out


def counted(n: int, word: str) -> str:
    """ "1 card", "2 cards": a count for sentences."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def before_slots(state: dict[str, Any], not_started: str) -> list[dict[str, Any]] | None:
    """What comes before any slot: the seats a pending reaction asks (nothing else is accepted
    meanwhile); nobody in a closed fight; the GM's step `not_started` before the first turn. None: the
    ruleset's slots apply."""
    if state.get("pending"):
        return reactions_acting(state)
    if state.get("closed"):
        return []
    if state.get("turn", 0) < 1:
        return [gm_step(state, not_started, "start the first turn")]
    return None


def once_answered(state: dict[str, Any]) -> str:
    """The words a `next_slot` sentence adds while a reaction waits."""
    return " once the pending reaction is answered" if state.get("pending") else ""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... for sentences about an order."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def before_in_order(state: dict[str, Any], order: list[str], cid: str, still_to_act: list[str]) -> str:
    """`when` sentence for a figure waiting in an order: who comes before him."""
    ahead = [o for o in order[: order.index(cid)] if o in still_to_act]
    if not ahead:
        return f"{name_of(state, cid)} is next in the order"
    names = ", ".join(name_of(state, o) for o in ahead)
    return (
        f"{name_of(state, cid)} is {ordinal(len(ahead) + 1)} of those still to act this turn, after {names}"
    )
