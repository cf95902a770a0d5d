"""Base contact as explicit state (spec §1): the events that make and end it."""

from __future__ import annotations

from typing import Any

from events.common import CloseCombatJoined, CloseCombatLeft, CombatantRemoved, ConditionChanged
from rules.rogue_trader.models import common_group, contacts_of
from rules.working import Working


def join(t: Working, a: str, b: str) -> None:
    """`CloseCombatJoined` for a new contact pair; the first two combatants are the pair, any others
    are members of a second engine group merged into this one."""
    s = t.state
    ga, gb = common_group(s, a), common_group(s, b)
    gid = min(g for g in (ga, gb) if g) if (ga or gb) else min(a, b)
    absorbed: list[str] = []
    for g in (ga, gb):
        if g and g != gid:
            absorbed += [m for m in s["groups"].get(g, {}).get("combatants", []) if m not in (a, b)]
    at = list(s["combatants"][a]["position"])
    t.emit(CloseCombatJoined(group=gid, combatants=[a, b, *sorted(absorbed)], at=at, standing=True))


def leave(t: Working, cid: str, how: str) -> None:
    """`CloseCombatLeft` ending every contact of the model (no event if it has none)."""
    s = t.state
    if not contacts_of(s, cid) and not common_group(s, cid):
        return
    t.emit(CloseCombatLeft(group=common_group(s, cid) or cid, combatant=cid, how=how))


def slay(t: Working, cid: str, remove_now: bool) -> None:
    """Death: `ConditionChanged{dead}`, `CloseCombatLeft{slain}`, and `CombatantRemoved` now or later."""
    t.emit(ConditionChanged(combatant=cid, condition="dead", on=True))
    leave(t, cid, "slain")
    if remove_now:
        t.emit(CombatantRemoved(combatant=cid))


def positions(state: dict[str, Any], ids: list[str]) -> list[list[int]]:
    return [state["combatants"][i]["position"] for i in ids if i in state["combatants"]]
