"""Walking (spec section 1: "1 AP per hex at a normal pace in melee"; §Intro: "Grappling requires a variable
expenditure of action points"): so a combatant may walk 2 hexes, then grab with the 3 AP left."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, FacingChanged, Moved
from events.dice import Dice
from rules.ap_grapple.action_points import actor_problems, ap_left, spend
from rules.ap_grapple.brawl import path_hexes, step_problems
from rules.ap_grapple.close_combat import leaving
from rules.ap_grapple.combatants import name_of, occupants, position
from rules.ap_grapple.commands import Move
from rules.ap_grapple.tables import AP_PER_HEX
from rules.hexes import Hex, as_hex, as_list, distance
from rules.interface import BadCommand, RuleError, combatant_or_error


def walker_problems(state: dict[str, Any], cid: str) -> list[str]:
    """Why this combatant may not walk at all now (before any path is looked at)."""
    problems = actor_problems(state, cid)
    c = state["combatants"][cid]
    name = name_of(state, cid)
    if position(c) is None:
        problems.append(f"{name} has no position on the map (the GM places combatants with move)")
    if c.get("posture") not in (None, "standing"):
        # DECISION (NOTES.md): the seed prices no standing up; the base game does, so it is the GM's.
        problems.append(f"{name} is {c.get('posture')}: getting up is the base game's, which the GM rules")
    if ap_left(state, cid) < AP_PER_HEX:
        problems.append(f"{name} has no AP left this round")
    return problems


def move_problems(state: dict[str, Any], cid: str, path: list[Hex]) -> list[str]:
    """Every reason this walk is refused (legal.py asks `walker_problems` only)."""
    problems = walker_problems(state, cid)
    start = position(state["combatants"][cid])
    if start is not None:
        problems += step_problems(state, cid, start, path)
    return problems


def decide_move(state: dict[str, Any], cmd: Move, dice: Dice) -> list[msgspec.Struct]:
    """`Moved {reason: move}` per hex (after `CloseCombatLeft` when the walk leaves a shared hex), the facing,
    then `APSpent {why: move}` and `ActionSpent` when no AP is left."""
    cid = cmd.combatant
    combatant_or_error(state, cid)
    if not cmd.path:
        raise BadCommand("path needs at least one hex", "path")
    if cmd.facing is not None and not 0 <= cmd.facing <= 5:
        raise BadCommand("facing must be a hex direction 0-5", "facing")
    path = path_hexes(cmd.path)
    problems = move_problems(state, cid, path)
    if problems:
        raise RuleError(f"{name_of(state, cid)} cannot move: " + "; ".join(problems), {"problems": problems})
    here = position(state["combatants"][cid])
    assert here is not None  # walker_problems refused the command otherwise
    events: list[msgspec.Struct] = [ActionDeclared(cid, "move", [], {"path": [as_list(h) for h in path]})]
    events += leaving(state, cid, path[0], "walked out")
    for step in path:
        events.append(Moved(cid, as_list(step), "move", None, as_list(here)))
        here = step
    if cmd.facing is not None:
        events.append(FacingChanged(cid, cmd.facing))
    return events + spend(state, cid, AP_PER_HEX * len(path), "move", all_spent_why="all AP spent")


def plain_move(state: dict[str, Any], cmd: Any, events: list[msgspec.Struct]) -> list[msgspec.Struct]:
    """The common `move {to}` once a round runs is a walk too (DECISION, NOTES.md): the hex distance in AP, to
    an open hex; only the end is checked (`ap-grapple.move` checks each step). Before round 1 it is the GM's
    placement and costs nothing; a GM correction during a round is a `ruling` on the position."""
    cid = cmd.combatant
    if state.get("turn", 0) < 1:
        if cmd.actor not in ("gm", "system"):
            raise RuleError(
                f"{name_of(state, cid)} cannot move: no round has started yet (the GM places "
                "combatants before round 1)"
            )
        return events
    here, to = position(state["combatants"][cid]), as_hex(cmd.to)
    problems = walker_problems(state, cid)
    if here is not None and to is not None:
        steps = distance(here, to)
        if steps == 0:
            problems.append(f"{name_of(state, cid)} is already at {as_list(to)}")
        if AP_PER_HEX * steps > ap_left(state, cid):
            problems.append(
                f"{as_list(to)} is {steps} hexes away ({AP_PER_HEX * steps} AP) but "
                f"{name_of(state, cid)} has only {ap_left(state, cid)} AP"
            )
        holders = occupants(state, to, besides=(cid,))
        if holders:
            problems.append(f"{as_list(to)} is held by {', '.join(name_of(state, c) for c in holders)}")
    if problems:
        raise RuleError(f"{name_of(state, cid)} cannot move: " + "; ".join(problems), {"problems": problems})
    assert here is not None and to is not None
    return [
        *leaving(state, cid, to, "walked out"),
        *events,
        *spend(state, cid, AP_PER_HEX * distance(here, to), "move", all_spent_why="all AP spent"),
    ]
