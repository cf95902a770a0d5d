"""The action order (4.0): by current DX at the action phase, re-sorted when HTH changes DX."""

from __future__ import annotations

from typing import Any

from events.common import InitiativeSet
from events.dice import Dice
from rules.tft import figures as F
from rules.tft.dx_in_hth import initiative_dx
from rules.tft.turn_sequence import wrong_phase


def _actors(state: dict[str, Any]) -> list[str]:
    return [cid for cid, c in state["combatants"].items() if F.conscious(c)]


def _break_ties(tied: list[str], dice: Dice, events: list[Any]) -> list[str]:
    """Each tied figure rolls 1d6, higher first; ties among them roll again (A29)."""
    if len(tied) < 2:
        return tied
    rolls = []
    for cid in tied:
        r = dice.roll(1, 6, "dx_tie", cid)
        events.append(r.event(total=r.sum, target=None, outcome="tie roll-off"))
        rolls.append((r.sum, cid))
    out: list[str] = []
    for face in sorted({f for f, _ in rolls}, reverse=True):
        out += _break_ties([cid for f, cid in rolls if f == face], dice, events)
    return out


def phase_order(state: dict[str, Any], dice: Dice) -> list[Any]:
    """Tie roll-offs and the `InitiativeSet` of an action phase's start."""
    events: list[Any] = []
    scored = [(initiative_dx(state, cid), cid) for cid in _actors(state)]
    order: list[str] = []
    for dx in sorted({d for d, _ in scored}, reverse=True):
        order += _break_ties([cid for d, cid in scored if d == dx], dice, events)
    return [*events, InitiativeSet(order)]


def reordered(state: dict[str, Any]) -> InitiativeSet | None:
    """The order after entry or joining changed HTH DX (4.0): figures that acted keep their places at the
    front; the rest are sorted by their new DX, earlier place first on equal DX. None if unchanged."""
    current = [cid for cid in state.get("initiative", []) if cid in state["combatants"]]
    if not current or state.get("phase") != "action":
        return None
    acted = [cid for cid in current if F.action_spent(state, cid)]
    rest = [cid for cid in current if cid not in acted]
    rest.sort(key=lambda cid: (-initiative_dx(state, cid), current.index(cid)))
    new = acted + rest
    return InitiativeSet(new) if new != state.get("initiative") else None


def head(state: dict[str, Any]) -> str | None:
    """The figure whose turn it is to act: first in the order with its action unspent and conscious."""
    for cid in state.get("initiative", []):
        c = state["combatants"].get(cid)
        if c and F.conscious(c) and not F.action_spent(state, cid):
            return cid
    return None


# Who may act out of the order (4.0: "only the head of the order (or the GM)"); players keep to it.
OUT_OF_ORDER_ACTORS = frozenset({"gm", "system"})


def slot_problems(state: dict[str, Any], cid: str, actor: str = "") -> list[str]:
    """Why this figure may not take its action now (action phase, its slot, action unspent). The GM
    (`actor` "gm") may act for a figure out of the order; the phase and the one action still hold."""
    who = F.name(state, cid)
    out = []
    not_now = wrong_phase(state, "action", "actions are taken")
    if not_now:
        out.append(not_now)
    elif F.action_spent(state, cid):
        out.append(f"{who} has already used this turn's action ({state['actions_spent'][cid]})")
    elif actor not in OUT_OF_ORDER_ACTORS:
        h = head(state)
        if h is None and not state.get("initiative"):
            out.append("no action order is set yet")
        elif h != cid:
            out.append(f"it is not {who}'s turn to act ({F.name(state, h)} acts first)")
    c = state["combatants"].get(cid)
    if c and not F.conscious(c):
        out.append(f"{who} is {'dead' if 'dead' in c['conditions'] else 'unconscious'}")
    return out
