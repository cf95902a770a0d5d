"""Breaking off from hand-to-hand combat (spec 4.12; §Breaking Off From Hand-To-Hand combat)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, ActionSpent, ConditionChanged, Moved
from events.dice import Dice
from rules.interface import BadCommand
from rules.plane import centroid, rounded, step_away
from rules.refusals import refuse
from rules.rogue_trader import allocation
from rules.rogue_trader.allocation import arc_of
from rules.rogue_trader.attacks import resolve_blow
from rules.rogue_trader.charging import double_move
from rules.rogue_trader.commands import BreakOff
from rules.rogue_trader.contact import leave, slay
from rules.rogue_trader.events import RtAttackResolved
from rules.rogue_trader.models import (
    active_side,
    contacts_of,
    disadvantaged,
    is_dead,
    phase,
    rules_model,
    turn,
    unit_leadership,
    unit_name,
    unit_named,
    unit_or_error,
)
from rules.rogue_trader.options import option
from rules.rogue_trader.tables import ATTACK_ARCS
from rules.working import Working

State = dict[str, Any]


def decide_break_off(state: State, cmd: BreakOff, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """Declare, rout test, each opponent's one free blow (target WS 1), then a double-pace retreat
    (or a rout), and nothing else this turn for either side (A25-A27)."""
    uid = unit_named(state, cmd.unit)
    members = unit_or_error(state, uid)
    if cmd.terrain_divisor < 1:
        raise BadCommand("terrain_divisor must be at least 1", "terrain_divisor")
    if cmd.distance is not None and cmd.distance < 0:
        raise BadCommand("distance must not be negative (hundredths of an inch)", "distance")
    engaged = [m for m in members if contacts_of(state, m)]
    problems = []
    side = state["combatants"][members[0]]["side"]
    if phase(state) != "movement" or side != active_side(state):
        problems.append(
            f"a unit breaks off only in its own movement phase (now: {active_side(state) or 'no'} "
            f"side's {phase(state) or 'no'} phase)"
        )
    if not engaged:
        problems.append(f"{unit_name(state, uid)} is not in close combat")
    charged = [
        state["combatants"][m]["name"]
        for m in engaged
        if rules_model(state, m).get("charged_turn") == turn(state)
    ]
    if charged:
        problems.append(
            f"{', '.join(charged)} charged into this combat this turn and so did not begin the turn in it"
        )
    refuse(problems, details={"unit": uid})
    t = Working(state, ruleset.evolve)
    s = t.state
    t.emit(
        ActionDeclared(
            combatant=None,
            action="break_off",
            targets=sorted({e for m in engaged for e in contacts_of(s, m)}),
            params={"unit": uid},
        )
    )
    ld = unit_leadership(s, uid)
    roll = dice.roll(2, 6, "rout_test", members[0])
    passed = roll.sum <= ld
    t.emit(roll.event(target=ld, outcome="pass" if passed else "fail"))
    contacts = {m: contacts_of(s, m) for m in engaged}
    opponents = sorted({e for es in contacts.values() for e in es})
    for o in opponents:
        _free_blow(t, dice, o, [m for m in engaged if o in contacts[m]])
    if not passed:
        for m in members:
            if m in t.state["combatants"]:
                t.emit(ConditionChanged(combatant=m, condition="routed", on=True))
    for m in engaged:
        if m not in t.state["combatants"]:
            continue
        c = t.state["combatants"][m]
        full = double_move(c, cmd.terrain_divisor)
        length = full if cmd.distance is None else min(full, cmd.distance)
        away = centroid([state["combatants"][e]["position"] for e in contacts[m]])
        to = rounded(step_away(c["position"], away, length))
        t.emit(
            Moved(combatant=m, to=to, reason="disengage" if passed else "run_away", from_=list(c["position"]))
        )
        leave(t, m, "break_off" if passed else "rout")
    for m in members:
        if m in t.state["combatants"]:
            t.emit(ActionSpent(combatant=m, turn=turn(s), why="broke_off"))
    for o in opponents:
        if o in t.state["combatants"]:
            t.emit(ActionSpent(combatant=o, turn=turn(s), why="opponent_broke_off"))
    return t.events


def _free_blow(t: Working, dice: Dice, striker: str, breakers: list[str]) -> None:
    """One blow only, one weapon, no multi-weapon -1, the target's WS counting as 1 (A26)."""
    s = t.state
    c = s["combatants"].get(striker)
    if c is None or is_dead(c) or disadvantaged(c):
        return
    slots = allocation.attack_slots(s, c)
    for target_id in breakers:
        target = s["combatants"].get(target_id)
        if target is None or is_dead(target):
            continue
        arc = arc_of(c["position"], c.get("facing") or 0, target["position"])
        slot = next((x for x in slots if arc in ATTACK_ARCS.get(x["attack"], ATTACK_ARCS["weapon"])), None)
        if slot is None:
            continue
        blow = allocation.build_blow(
            s, c, target, slot, weapons_in_use=1, in_round=False, target_turned_away=True
        )
        opts = {k: option(s, k) for k in ("high_to_hit", "wound_chart", "strength_save_mods")}
        result = resolve_blow(dice, blow, target, opts, "free_blow_")
        t.extend(result.events)
        t.emit(
            RtAttackResolved(
                attacker=striker,
                target=target_id,
                attack=0,
                kind=slot["attack"],
                outcome=result.outcome,
                wounds=result.wounds,
                weapon=slot.get("weapon"),
                hit_from=blow.table_from,
                wound_from=result.wound_from,
            )
        )
        if result.wounds and is_dead(t.state["combatants"][target_id]):
            slay(t, target_id, remove_now=True)
        return
