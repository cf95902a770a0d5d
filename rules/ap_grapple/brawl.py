"""Brawl (§Brawl; spec section 4.4): the whole round's movement, a charge, and a weight-adjusted to-hit."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, CloseCombatJoined, Moved, PostureChanged
from events.dice import Dice, Modifier
from rules.ap_grapple.action_points import actor_problems, ap_left, ap_per_round, spend
from rules.ap_grapple.close_combat import group_id_for, leaving
from rules.ap_grapple.combatants import name_of, occupants, position, stat
from rules.ap_grapple.commands import Brawl
from rules.ap_grapple.events import BrawlTakedown, WeightRatio
from rules.ap_grapple.options import option
from rules.ap_grapple.tables import AP_PER_HEX, ratio_row, ratio_text
from rules.ap_grapple.targets import opponent_problems
from rules.ap_grapple.to_hit import check_gm_target_field, roll_to_hit, target_problems, to_hit_target
from rules.hexes import Hex, as_hex, as_list, distance
from rules.interface import BadCommand, combatant_or_error
from rules.refusals import refuse

BRAWL_TO_HIT = "brawl to-hit (d20 + mods >= target)"


def path_hexes(path: list[list[int]]) -> list[Hex]:
    """The path as hexes; a step that is not `[q, r]` is a 400 naming it."""
    hexes = []
    for i, step in enumerate(path):
        h = as_hex(step)
        if h is None:
            raise BadCommand(f"path[{i}] must be an axial hex [q, r] of two whole numbers", f"path[{i}]")
        hexes.append(h)
    return hexes


def step_problems(state: dict[str, Any], mover: str, start: Hex, path: list[Hex]) -> list[str]:
    """Each step next to the last and open (a combatant holds its hex), 1 AP each, within the AP left."""
    problems = []
    cost, left = AP_PER_HEX * len(path), ap_left(state, mover)
    if cost > left:
        problems.append(
            f"the path is {len(path)} hexes ({cost} AP) but {name_of(state, mover)} has only {left} AP"
        )
    here = start
    for i, step in enumerate(path):
        if distance(here, step) != 1:
            problems.append(f"path[{i}] {as_list(step)} is not next to {as_list(here)}")
        holders = occupants(state, step, besides=(mover,))
        if holders:
            problems.append(
                f"path[{i}] {as_list(step)} is held by {', '.join(name_of(state, c) for c in holders)}"
            )
        here = step
    return problems


def path_problems(state: dict[str, Any], attacker: str, defender: str, path: list[Hex]) -> list[str]:
    """The path: adjacent open hexes, 1 AP each, at most the AP left, ending next to the defender."""
    a = position(state["combatants"][attacker])
    d = position(state["combatants"][defender])
    an, dn = name_of(state, attacker), name_of(state, defender)
    if a is None or d is None:
        missing = [name_of(state, c) for c, h in ((attacker, a), (defender, d)) if h is None]
        return [f"{' and '.join(missing)} {'has' if len(missing) == 1 else 'have'} no position on the map"]
    problems = step_problems(state, attacker, a, path)
    here = path[-1] if path else a
    if path:
        if distance(here, d) != 1:
            problems.append(f"the path ends at {as_list(here)}, not next to {dn}")
    elif distance(a, d) > 1:
        problems.append(f"{dn} is not next to {an} (give a path that ends next to {dn})")
    return problems


def brawl_problems(state: dict[str, Any], attacker: str, defender: str, path: list[Hex]) -> list[str]:
    """Every reason this brawl may not be made now (spec 4.4 "Who and when", "Target and path")."""
    problems = actor_problems(state, attacker)
    left, full = ap_left(state, attacker), ap_per_round(state, attacker)
    if left < full:
        problems.append(
            f"a brawl takes the whole round and {name_of(state, attacker)} has already spent "
            f"{full - left} of {full} AP this round"
        )
    elif full == 0:
        problems.append(f"{name_of(state, attacker)} has no AP this round")
    problems += opponent_problems(state, attacker, defender)
    if attacker != defender:
        problems += path_problems(state, attacker, defender, path)
        problems += target_problems(state, attacker, defender)
        posture = state["combatants"][attacker].get("posture")
        if path and posture not in (None, "standing"):
            # DECISION (NOTES.md): a charge is a walk first, and a down combatant may not walk (walking.py).
            problems.append(
                f"{name_of(state, attacker)} is {posture} and cannot charge: getting up is the base game's, "
                "which the GM rules (a brawl from where they lie needs the enemy next to them)"
            )
    return problems


def decide_brawl(state: dict[str, Any], cmd: Brawl, dice: Dice) -> list[msgspec.Struct]:
    """The brawl's events (4.4): the charge, all AP spent, the weight ratio, the roll, and a takedown."""
    a, d = cmd.combatant, cmd.target
    combatant_or_error(state, a, "combatant")
    combatant_or_error(state, d, "target")
    path = path_hexes(cmd.path)
    check_gm_target_field(state, cmd.to_hit_target)
    problems = brawl_problems(state, a, d, path)
    refuse(problems, f"{name_of(state, a)} cannot brawl")
    ac, dc = state["combatants"][a], state["combatants"][d]
    start = position(ac)
    d_hex = position(dc)
    assert start is not None and d_hex is not None  # path_problems refused the command otherwise
    events: list[msgspec.Struct] = [ActionDeclared(a, "brawl", [d], {"path": [as_list(h) for h in path]})]
    here = start
    for i, step in enumerate(path):
        if i == 0:
            events += leaving(state, a, step, "charged out")
        events.append(Moved(a, as_list(step), "charge", None, as_list(here)))
        here = step
    events += spend(state, a, ap_left(state, a), "brawl", all_spent_why="brawl uses the full round")
    a_lb, d_lb = stat(ac, "weight_lb") or 0, stat(dc, "weight_lb") or 0
    row = ratio_row(a_lb, d_lb, option(state, "brawl_ratio_rule"))
    events.append(WeightRatio(a_lb, d_lb, ratio_text(a_lb, d_lb), row.row, row.modifier))
    modifiers = [Modifier(row.modifier, f"weight ratio {row.row}"), *cmd.modifiers]
    target = to_hit_target(state, a, d, cmd.to_hit_target)
    rolled, hit = roll_to_hit(state, dice, BRAWL_TO_HIT, a, target, modifiers)
    events.append(rolled)
    if hit:
        events += _takedown(state, a, d, here, d_hex)
    return events


def _takedown(state: dict[str, Any], a: str, d: str, here: Hex, d_hex: Hex) -> list[msgspec.Struct]:
    """Both to the ground in the defender's hex, as a fallen close-combat group (DECISION, spec 4.4)."""
    events: list[msgspec.Struct] = [BrawlTakedown(a, d)]
    if here != d_hex:
        if here == position(state["combatants"][a]):
            events += leaving(state, a, d_hex, "followed up")
        events.append(Moved(a, as_list(d_hex), "follow_up", None, as_list(here)))
    for cid in (a, d):
        if state["combatants"][cid].get("posture") != "prone":
            events.append(PostureChanged(cid, "prone"))
    events.append(CloseCombatJoined(group_id_for(state, [d, a], d_hex), [a, d], as_list(d_hex), False))
    return events
