"""Prisoners and holds after a grapple (§GRAPPLING, spec 4.9): CaptorActs, Liberate, automatic liberation."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import (
    ActionDeclared,
    ConditionChanged,
    Moved,
    PinHeld,
    PinReleased,
    PostureChanged,
    RulingMade,
)
from events.dice import Dice
from rules.interface import RuleError, combatant_or_error
from rules.plane import distance, inches, is_point, path_length, round_half_up, rounded, step_toward
from rules.refusals import refuse
from rules.skirmish.commands import CaptorActs, Liberate
from rules.skirmish.events import PrisonerLiberated
from rules.skirmish.figures import captor_of, has, held_by_him, move_reach, name_of, prisoners_of
from rules.skirmish.options import option
from rules.skirmish.reach import check_path
from rules.skirmish.working import working
from rules.working import Working

# DECISION (spec 4.9): liberation is automatic when the captor is out of the fight.
CAPTOR_DOWN_CONDITIONS: tuple[str, ...] = ("dead", "unconscious", "routed")
# Spec 4.9: the hold a standing captor gives up says so in `PinReleased.why`.
CAPTOR_STOOD = "captor stood"


def free(w: Working, prisoner: str, captor: str, how: str) -> None:
    """End the hold (if any) and the captivity; `how` is also the hold's `PinReleased.why`."""
    if any(p["holder"] == captor and p["pinned"] == prisoner for p in w.state.get("pins", [])):
        w.emit(PinReleased(pinned=prisoner, holder=captor, why=how))
    if prisoner in w.state["combatants"] and has(w.combatant(prisoner), "prisoner"):
        w.emit(ConditionChanged(prisoner, "prisoner", False))
    w.emit(PrisonerLiberated(prisoner, captor, how))


def liberate_if_captor_down(w: Working) -> None:
    """Free every prisoner whose captor is dead, unconscious or routed (spec 4.9 DECISION)."""
    for entry in list(w.state.get("rules", {}).get("prisoners", [])):
        captor = w.state["combatants"].get(entry["captor"])
        down = next((c for c in CAPTOR_DOWN_CONDITIONS if captor and has(captor, c)), None)
        if down:
            free(w, entry["prisoner"], entry["captor"], f"captor {down}")


def captor_acts_problems(
    state: dict[str, Any], cid: str, stand_up: bool = False, moves: bool = False
) -> list[str]:
    """Each reason this figure may not act as a captor now (§GRAPPLING "moves on the attacker's cards")."""
    captor = state["combatants"][cid]
    name = captor["name"]
    problems = []
    if cid not in state["rules"].get("holders", []):
        problems.append(
            f"{name} does not hold the card drawn (§GRAPPLING: the prisoner moves on the captor's cards)"
        )
    elif cid in state["rules"].get("fought", []):
        # DECISION (NOTES.md, version 5): one act on a card, as a hand to hand takes the card (the grapple
        # that took the prisoner ends the activation: "Hans's activation ends with the grapple").
        problems.append(
            f"{name} has already fought or acted as captor on this card (§GRAPPLING: the prisoner moves on "
            "the captor's cards: the next card)"
        )
    if not prisoners_of(state, cid):
        problems.append(f"{name} has no prisoner")
    if moves and not (stand_up or captor.get("posture") == "standing"):
        problems.append(
            f"{name} is {captor.get('posture', 'down').replace('_', ' ')} and must stand up to move (stand_up: true)"
        )
    return problems


def captor_acts(w: Working, cmd: CaptorActs) -> None:
    """On the captor's card: keep holding; or stand up (both stand, the hold ends); and, standing, move, pulling
    the prisoner along in contact (spec 4.9)."""
    state = w.state
    captor = combatant_or_error(state, cmd.combatant)
    name = captor["name"]
    problems = captor_acts_problems(state, cmd.combatant, cmd.stand_up, cmd.path is not None)
    refuse(problems, f"{name} cannot act as a captor")
    prisoners = prisoners_of(state, cmd.combatant)
    held = held_by_him(state, cmd.combatant)
    w.emit(
        ActionDeclared(
            cmd.combatant, "captor_acts", prisoners, {"stand_up": cmd.stand_up, "moves": cmd.path is not None}
        )
    )
    if not cmd.stand_up and cmd.path is None:
        for p in held:
            w.emit(PinHeld(holder=cmd.combatant, pinned=p, turn=w.turn))
        return
    if cmd.stand_up:
        for p in held:
            w.emit(PinReleased(pinned=p, holder=cmd.combatant, why=CAPTOR_STOOD))
        for who in [cmd.combatant, *prisoners]:
            if w.combatant(who).get("posture") != "standing":
                w.emit(PostureChanged(who, "standing"))
    if cmd.path is not None:
        _pull(w, cmd.combatant, prisoners, cmd.path)


def _pull(w: Working, captor: str, prisoners: list[str], path: list[list[int]]) -> None:
    c = w.combatant(captor)
    check_path(path)
    start = c.get("position")
    reach = move_reach(c)
    if is_point(start) and reach is not None and round_half_up(path_length([start, *path])) > reach:
        raise RuleError(
            f"{c['name']} can move at most one move ({inches(reach)}) with a prisoner in tow; that path is "
            f"{inches(round_half_up(path_length([start, *path])))} long."
        )
    end = path[-1]
    w.emit(Moved(captor, end, "move", None, start))
    contact = option(w.state, "contact_distance")
    for p in prisoners:
        pos = w.combatant(p).get("position")
        w.emit(Moved(p, _in_tow(start, end, pos, contact), "pulled", None, pos))


def _in_tow(start: Any, end: list[int], pos: Any, contact: int) -> list[int]:
    """Where a pulled prisoner ends: at his offset from the captor while that is within touch, else drawn in to
    touching distance on the same side (spec 4.9 "stays in contact"; DECISION, NOTES.md)."""
    if not (is_point(pos) and is_point(start)):
        return list(end)
    if round_half_up(distance(start, pos)) <= contact:
        return [end[0] + pos[0] - start[0], end[1] + pos[1] - start[1]]
    return rounded(step_toward(end, [end[0] + pos[0] - start[0], end[1] + pos[1] - start[1]], contact))


def liberate(w: Working, cmd: Liberate) -> None:
    """The GM frees a prisoner (the seed does not say how): RulingMade, then the freeing events."""
    prisoner = combatant_or_error(w.state, cmd.target, "target")
    captor = captor_of(w.state, cmd.target)
    if captor is None:
        raise RuleError(f"{prisoner['name']} is not anyone's prisoner.")
    w.emit(RulingMade(f"{prisoner['name']} is liberated from {name_of(w.state, captor)}: {cmd.how}"))
    free(w, cmd.target, captor, cmd.how)


def after_ruling(state: dict[str, Any], events: list[msgspec.Struct], dice: Dice) -> list[msgspec.Struct]:
    """DECISION (spec 4.9): a ruling that knocks out or routs a captor frees his prisoner at once."""
    w = working(state, dice)
    w.emit(*[e for e in events if isinstance(e, msgspec.Struct)])
    before = len(w.events)
    liberate_if_captor_down(w)
    return [*events, *w.events[before:]]


def captor_removed(state: dict[str, Any], captor: str) -> list[msgspec.Struct]:
    """Removing a captor frees his prisoners first (spec 4.9 DECISION)."""
    freed: list[msgspec.Struct] = []
    for p in prisoners_of(state, captor):
        freed += [ConditionChanged(p, "prisoner", False), PrisonerLiberated(p, captor, "captor removed")]
    return freed
