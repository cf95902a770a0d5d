"""After a round: push-backs and follow-ups (spec 4.10-4.11; §Push-backs, §Follow-Ups)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, ActionSpent, FollowedUp, Moved, PushedBack
from events.dice import Dice
from rules.interface import BadCommand, RuleError
from rules.plane import centroid, distance, round_half_up, rounded, step_away, step_toward
from rules.rogue_trader.combat_round import emit_follow_ups, owed_followers
from rules.rogue_trader.commands import FollowUp, PushBack
from rules.rogue_trader.contact import join, leave
from rules.rogue_trader.events import RtHeldGround
from rules.rogue_trader.models import (
    contacts_of,
    radius,
    turn,
    unit_leadership,
    unit_members,
    unit_name,
    unit_named,
)
from rules.working import Working

State = dict[str, Any]
PUSH_BACK = 200  # 2", §Push-backs


def decide_push_back(state: State, cmd: PushBack, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """Each owed model moves 2" straight away from its contacted enemies, facing unchanged; a building
    or model behind it (`stop_after`) halts it short, still pushed back (A10, A11)."""
    uid = unit_named(state, cmd.unit)
    owed = state["rules"]["owed"]["push_back"].get(uid)
    if not owed:
        raise RuleError(f"{unit_name(state, uid)} owes no push-back now", {"unit": cmd.unit})
    for mid, params in cmd.per_model.items():
        if mid not in owed["models"]:
            raise BadCommand(f"per_model names {mid}, who is not being pushed back", "per_model")
        for key, value in params.items():
            if key not in ("terrain_divisor", "stop_after"):
                raise BadCommand(f"per_model.{mid}.{key} is not a push-back setting", f"per_model.{mid}")
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or value < (1 if key == "terrain_divisor" else 0)
            ):
                raise BadCommand(
                    f"per_model.{mid}.{key} must be a whole number"
                    f"{' of at least 1' if key == 'terrain_divisor' else ' (hundredths of an inch)'}",
                    f"per_model.{mid}.{key}",
                )
    t = Working(state, ruleset.evolve)
    t.emit(ActionDeclared(combatant=None, action="push_back", params={"unit": uid}))
    s = t.state
    movers = [m for m in owed["models"] if m in s["combatants"] and contacts_of(s, m)]
    contacts = {m: contacts_of(s, m) for m in movers}
    results = {u: r["result"] for u, r in s["rules"]["results"].items() if r.get("round") == turn(s)}
    followers = owed_followers(s, contacts, results)
    for m in movers:
        c = t.state["combatants"][m]
        params = cmd.per_model.get(m, {})
        length = PUSH_BACK / params.get("terrain_divisor", 1)
        if "stop_after" in params:
            length = min(length, params["stop_after"])
        away = centroid([t.state["combatants"][e]["position"] for e in contacts[m]])
        to = rounded(step_away(c["position"], away, length))
        frm = list(c["position"])
        t.emit(PushedBack(combatant=m, to=to, distance=round_half_up(length), from_=frm))
        t.emit(Moved(combatant=m, to=to, reason="push_back", from_=frm))
        leave(t, m, "push_back")
    emit_follow_ups(t, followers)
    return t.events


def decide_follow_up(state: State, cmd: FollowUp, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """Follow (free, straight, back into contact) or try to hold: untested behind an obstacle or in a
    prepared position, else 2D6 <= Ld; a failed test means following after all (§Follow-Ups)."""
    uid = unit_named(state, cmd.unit)
    owed = state["rules"]["owed"]["follow_up"].get(uid)
    if not owed:
        raise RuleError(f"{unit_name(state, uid)} owes no follow-up now", {"unit": cmd.unit})
    if cmd.choice not in ("follow", "hold"):
        raise BadCommand("choice must be follow or hold", "choice")
    followers: dict[str, list[str]] = owed["followers"]
    for mid, enemy in cmd.targets.items():
        if mid not in followers:
            raise BadCommand(f"targets names {mid}, who does not follow up", "targets")
        if enemy not in followers[mid]:
            raise RuleError(f"{mid} was not in contact with {enemy} before the push-back", {"target": enemy})
    t = Working(state, ruleset.evolve)
    rnd = turn(state)
    t.emit(
        ActionDeclared(
            combatant=None, action=cmd.choice if cmd.choice == "hold" else "follow_up", params={"unit": uid}
        )
    )
    if cmd.choice == "hold":
        if owed["may_hold_without_test"]:
            _hold(t, uid, rnd, tested=False)
            return t.events
        ld = unit_leadership(state, uid)
        members = unit_members(state, uid)
        roll = dice.roll(2, 6, "follow_up_hold", members[0] if members else None)
        held = roll.sum <= ld
        t.emit(roll.event(target=ld, outcome="hold" if held else "must_follow"))
        if held:
            _hold(t, uid, rnd, tested=True)
            return t.events
        t.emit(ActionDeclared(combatant=None, action="follow_up", params={"unit": uid, "forced": True}))
    for m in sorted(followers):
        if m not in t.state["combatants"]:
            continue
        choices = [e for e in followers[m] if e in t.state["combatants"]]
        if not choices:
            continue
        enemy = cmd.targets.get(m) or min(
            choices,
            key=lambda e: (
                distance(t.state["combatants"][m]["position"], t.state["combatants"][e]["position"]),
                e,
            ),
        )
        _follow(t, m, enemy)
    return t.events


def _hold(t: Working, unit: str, rnd: int, tested: bool) -> None:
    t.emit(RtHeldGround(unit=unit, round=rnd, tested=tested))
    for m in unit_members(t.state, unit):
        t.emit(ActionSpent(combatant=m, turn=turn(t.state), why="held_ground"))


def _follow(t: Working, m: str, enemy: str) -> None:
    """Straight toward the enemy until the bases touch again (A12)."""
    c = t.state["combatants"][m]
    e = t.state["combatants"][enemy]
    length = max(0.0, distance(c["position"], e["position"]) - radius(c) - radius(e))
    to = rounded(step_toward(c["position"], e["position"], length))
    frm = list(c["position"])
    if contacts_of(t.state, m):
        leave(t, m, "follow_up")
    t.emit(FollowedUp(combatant=m, to=to, from_=frm))
    t.emit(Moved(combatant=m, to=to, reason="follow_up", from_=frm))
    join(t, m, enemy)


__all__ = ["decide_push_back", "decide_follow_up", "emit_follow_ups"]
