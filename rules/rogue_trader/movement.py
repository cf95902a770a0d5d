"""Ordinary movement (spec 4.1; seed §Entering Hand-To-Hand Combat, §Breaking Off): a model moves up to its
move allowance M (inches) once, in its own side's movement phase, and never into or out of close combat.

The seed's exceptions are other commands, not this one: a charge (double M, `charging`), the charged
model's turn to face, stand and fire or run away (its `charged` reaction), push-backs and follow-ups
(`aftermath`: "additional to normal movement"), breaking off (`breaking_off`) and the flight of a rout.
"""

from __future__ import annotations

from typing import Any

from rules.common.commands import Move
from rules.plane import base_gap, distance, inches
from rules.refusals import refuse
from rules.rogue_trader.authority import by_gm
from rules.rogue_trader.models import (
    active_side,
    contacts_of,
    effective_move,
    gap_between,
    is_enemy,
    phase,
    radius,
    rules_model,
    stat,
    turn,
)
from rules.rogue_trader.tables import CONTACT_TOLERANCE

State = dict[str, Any]

# Measuring slack: positions are whole hundredths, so a move of exactly M may round 0.01" long.
MEASURE_TOLERANCE = 1

# Why a model may not start a move this turn: the fold's turn flags (spec §3) and the seed's words.
TURN_FLAGS = (
    ("moved_turn", "has already moved this turn (one move per movement phase)"),
    ("ran_away_turn", "ran away this turn"),
    ("broke_off_turn", "broke off from combat this turn and may do nothing else"),
    ("failed_charge_turn", "failed a charge this turn and may do nothing at all for the rest of it"),
    ("charged_turn", "already charged this turn (a charge is its move)"),
    ("stationary_turn", "must remain stationary for the rest of this turn"),
)


def turn_flags_problems(state: State, c: dict[str, Any]) -> list[str]:
    """Why the model may not start a move (or a charge) this turn: moved, ran, broke off, failed a charge..."""
    rm = rules_model(state, c["id"])
    t = turn(state)
    return [f"{c['name']} {words}" for flag, words in TURN_FLAGS if rm.get(flag) == t]


def whose_phase_problems(state: State, c: dict[str, Any], what: str) -> list[str]:
    """A model moves (or charges, or breaks off) only in its own side's movement phase (seed turn sequence)."""
    side = active_side(state)
    if phase(state) == "movement" and c["side"] == side:
        return []
    now = f"{side} side's {phase(state) or 'no'} phase" if side else "no player turn"
    return [f"{c['name']} {what} only in its side's own movement phase (now: {now})"]


def move_problems(
    state: State, c: dict[str, Any], to: list[int] | None = None, gm: bool = False
) -> list[str]:
    """Why this ordinary move is refused (without `to`: why the model may not move at all now).

    DECISION: before the first turn (turn 0) models are being set up and move freely. The distance is the
    straight line from where the model stands to `to` (terrain is the table's: a path is not given)."""
    if turn(state) < 1:
        return []
    problems = whose_phase_problems(state, c, "moves")
    if contacts_of(state, c["id"]):
        # Breaking off is a movement-phase step too: sent there only while that phase is its side's.
        when = ", which takes its side's own movement phase" if problems else ""
        problems.append(
            f"{c['name']} is in close combat and may leave it only by breaking off (rogue-trader.break_off){when}"
        )
    problems += turn_flags_problems(state, c)
    allowance = effective_move(c) * 100
    if to is None:
        if allowance <= 0:
            problems.append(f"{c['name']} has no move allowance (M {stat(c, 'M')})")
        return problems
    length = distance(c["position"], to)
    if length > allowance + MEASURE_TOLERANCE:
        penalty = (
            f" less {c['stats']['move_penalty']} for a heavy weapon" if c["stats"].get("move_penalty") else ""
        )
        problems.append(
            f"{c['name']} may move up to {inches(allowance)} (M {stat(c, 'M')}{penalty}) in a movement "
            f"phase, not {inches(length)}; a charge may go twice as far (rogue-trader.charge)"
        )
    problems += stray_problems(state, c, to)
    # Players must declare a charge to reach contact; the GM's move may set a model down there (a table
    # correction that makes no contact in the rules' sense: only charges and follow-ups make contact).
    if not gm:
        for oid, o in sorted(state["combatants"].items()):
            if (
                oid != c["id"]
                and is_enemy(c, o)
                and base_gap(to, radius(c), o["position"], radius(o)) <= CONTACT_TOLERANCE
            ):
                problems.append(
                    f"the move ends in base contact with {o['name']}: that must be a declared charge "
                    "(rogue-trader.charge)"
                )
    return problems


def stray_main_body(state: State, c: dict[str, Any]) -> list[dict[str, Any]]:
    """The models a stray must move towards: its unit's main body at the last coherency check; none for a
    model that is no stray, or whose main body is gone (it then moves as any model)."""
    rm = rules_model(state, c["id"])
    if rm.get("coherency") != "stray_rejoin":
        return []
    unit = state["rules"].get("units", {}).get(rm.get("unit"), {})
    return [
        state["combatants"][m]
        for m in (unit.get("coherency") or {}).get("main_body", [])
        if m in state["combatants"] and m != c["id"]
    ]


def stray_problems(state: State, c: dict[str, Any], to: list[int]) -> list[str]:
    """§Unit Coherency in Push-Backs, option 1: "The stray model must move towards its unit in the following
    turn" — a stray may not end its move farther from the unit's main body than it began."""
    main = stray_main_body(state, c)
    if not main:
        return []
    before = min(gap_between(c, o) for o in main)
    after = min(base_gap(to, radius(c), o["position"], radius(o)) for o in main)
    if after <= before + MEASURE_TOLERANCE:
        return []
    return [
        f'{c["name"]} is more than 2" from its unit and must move towards it this turn (it would end '
        f"{inches(after)} from it, {inches(before)} now)"
    ]


def check_move(state: State, cmd: Move) -> None:
    """Refuse an ordinary move the rules forbid (422 naming each reason)."""
    c = state["combatants"].get(cmd.combatant)
    if c is None:
        return  # the common command has already refused an unknown combatant
    problems = move_problems(state, c, list(cmd.to), gm=by_gm(cmd))
    refuse(problems, details={"combatant": c["id"]})
