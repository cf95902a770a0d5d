"""Stepping out and striking (§Leaving a Foe's Hex): "If you take a maneuver that allows a step, you can
step out of the hex and attack, feint, etc. with a one-hex reach weapon ... but your step can only take
you into one of the three hexes on your side of the hex." (The other order, a close-combat attack and
then the step, is `gurps.close_combat_attack` followed by `gurps.move`.)"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared
from events.dice import Dice
from rules.gurps.attacks import defence_request
from rules.gurps.combatant_stats import not_ready_reason, weapon_is_ready, weapon_named
from rules.gurps.commands import StepOutAttack
from rules.gurps.events import GurpsMovementUsed
from rules.gurps.hex_sharing import shared_hex
from rules.gurps.leaving import leaving_events
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.paths import checked_path
from rules.gurps.situational_modifiers import fighter
from rules.gurps.state import evolve_rules
from rules.gurps.success_rolls import success_roll
from rules.gurps.tables import MANEUVERS
from rules.gurps.weapons import reach_words, weapon_skill
from rules.hexes import as_hex, distance
from rules.interface import RuleError
from rules.refusals import refuse
from rules.working import folded


def has_reach_one(weapon: dict[str, Any]) -> bool:
    """A melee weapon whose reach includes 1."""
    return weapon.get("kind") == "melee" and "1" in [str(r) for r in weapon.get("reach") or []]


def step_out_problems(state: dict[str, Any], cmd: StepOutAttack, maneuver: str) -> list[str]:
    """Why he may not step out and strike now (empty when he may); the step itself is judged by leaving."""
    c = state["combatants"][cmd.combatant]
    t = state["combatants"][cmd.target]
    f = fighter(state, cmd.combatant)
    problems = []
    if not MANEUVERS[maneuver]["attack"]:
        problems.append(f"{maneuver.replace('_', ' ')} does not allow an attack")
    if f["attacks_this_maneuver"] >= 1:
        problems.append(f"{c['name']} has already attacked this maneuver")
    if f["movement_left"] < 1:
        problems.append(f"{c['name']} has no movement left for the step")
    if shared_hex(state, cmd.combatant) is None:
        problems.append(f"{c['name']} is not in close combat: attack at reach with the GM, or step in")
    if t["side"] == c["side"]:
        problems.append(f"{t['name']} is not a foe")
    w = weapon_named(c, cmd.weapon)
    if w is None:
        problems.append(f"{c['name']} has no weapon named {cmd.weapon!r}")
    elif not has_reach_one(w):
        problems.append(f"the {w['name']} ({reach_words(w)}) is not a one-hex-reach weapon")
    elif not weapon_is_ready(c, w):
        problems.append(not_ready_reason(c, w))
    if t.get("position") is not None and distance(as_hex(cmd.to), t["position"]) != 1:
        problems.append(f"from {list(cmd.to)} {t['name']} is not within reach 1")
    return problems


def decide_step_out_attack(state: dict[str, Any], cmd: StepOutAttack, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.step_out_attack`: the step (Moved, leaving close combat), then the attack roll at the
    weapon's skill (outside close combat: no shield penalty), then the target's defence."""
    cid = cmd.combatant
    c = state["combatants"][cid]
    maneuver = own_turn_or_error(state, cid, "with an attack maneuver that allows a step")
    problems = step_out_problems(state, cmd, maneuver)
    refuse(problems, details={"combatant": cid, "target": cmd.target, "weapon": cmd.weapon})
    (to,) = checked_path(c, [cmd.to])
    left = int(fighter(state, cid)["movement_left"])
    events: list[msgspec.Struct] = leaving_events(state, cid, maneuver, to)
    events.append(GurpsMovementUsed(cid, 1, 0, left - 1))
    after = folded(state, events, evolve_rules)
    if shared_hex(after, cid) is not None:
        raise RuleError(
            f"{list(to)} holds a foe of {c['name']}: stepping there is close combat again, "
            f"not a step out (use gurps.move, then gurps.close_combat_attack)"
        )
    w = weapon_named(c, cmd.weapon)
    assert w is not None
    skill, level = weapon_skill(c, w)
    roll = success_roll(
        dice, combatant=cid, purpose="attack", base=level, base_name=skill, modifiers=list(cmd.modifiers)
    )
    events += [
        ActionDeclared(cid, "step_out_attack", [cmd.target], {"weapon": w["name"], "to": list(to)}),
        roll.event,
    ]
    if roll.success:
        events += defence_request(folded(state, events, evolve_rules), cid, cmd.target, "strike", w, roll)
    return events
