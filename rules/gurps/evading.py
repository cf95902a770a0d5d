"""Evading (spec section 4.2, §Evading): moving through a foe's hex without knocking him down.

The foe chooses to stop the mover or let him pass (reaction `evade_stop`); stopping is a Quick
Contest of DX, the mover first. Ties stop the mover.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import Moved, ReactionCancelled, ReactionRequested
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.gurps.close_combat import arrival, arrivals, in_close_combat_at
from rules.gurps.combatant_stats import name, stats
from rules.gurps.commands import Evade
from rules.gurps.entering import entry_events, stop_facing_foe
from rules.gurps.events import (
    EvadeAnswered,
    EvadeChallenged,
    EvadeStopped,
    GurpsMovementUsed,
    QuickContestResolved,
)
from rules.gurps.hex_sharing import foe_side_hexes, in_close_combat_with, seat_of, shared_hex
from rules.gurps.leaving import leaving_problems, releases_on_leaving
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.options import option
from rules.gurps.paths import checked_path, movement_cost_error
from rules.gurps.situational_modifiers import dx_modifiers, fighter, is_grappled, pins_on, shield_dx_modifiers
from rules.gurps.state import evolve_rules
from rules.gurps.success_rolls import contest_side, quick_contest, success_roll
from rules.gurps.tables import (
    ARC_BY_OFFSET,
    AUTOMATIC_EVADE_TRAITS,
    EVADE_APPROACH_MODIFIERS,
    EVADE_POSTURE_MODIFIERS,
    LYING_POSTURES,
    MANEUVERS,
)
from rules.hexes import Hex, as_hex, direction_to
from rules.interface import Answer, BadCommand, RuleError
from rules.refusals import refuse
from rules.working import folded


def arc_of(facing: int | None, direction: int) -> str:
    """Whether the neighbour across `direction` is in the front, left, right or back of a figure.

    A figure without a facing is approached from the front (nothing better is known)."""
    if facing is None:
        return "front"
    return ARC_BY_OFFSET[(direction - facing) % 6]


def posture_key(posture: str | None) -> str | None:
    """standing / kneeling / lying (any lying-down posture), or None for the rest."""
    if posture in LYING_POSTURES:
        return "lying"
    return posture if posture in EVADE_POSTURE_MODIFIERS else None


def evade_modifiers(foe: dict[str, Any], approach: str) -> list[Modifier]:
    """The mover's table modifiers against this foe from this arc (zeros are dropped)."""
    mods = []
    key = posture_key(foe.get("posture"))
    if key is not None:
        v, why = EVADE_POSTURE_MODIFIERS[key]
        mods.append(Modifier(v, why))
    v, why = EVADE_APPROACH_MODIFIERS[approach]
    mods.append(Modifier(v, why))
    return [m for m in mods if m.value != 0]


def has_automatic_evade(c: dict[str, Any]) -> bool:
    """Flight or Super Jump lets him go over the foe's reach (§Evading)."""
    traits = [str(t).lower() for t in stats(c).get("traits") or []]
    return any(t in traits for t in AUTOMATIC_EVADE_TRAITS)


def decide_evade(state: dict[str, Any], cmd: Evade, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.evade`: into (or out of) the foe's hex and on through his side, asking him first."""
    cid, foe_id = cmd.combatant, cmd.target
    c = state["combatants"][cid]
    foe = state["combatants"][foe_id]
    maneuver = own_turn_or_error(state, cid, "with movement")
    problems = []
    if foe["side"] == c["side"]:
        problems.append(f"{foe['name']} is on {c['name']}'s side, not a foe")
    if is_grappled(state, cid):
        problems.append(f"{c['name']} cannot evade anyone while being grappled")
    if pins_on(state, cid):
        problems.append(f"{c['name']} is pinned")
    if MANEUVERS[maneuver]["movement"] in ("step", "none"):
        problems.append(
            f"{maneuver} allows at most a step, and a step never carries a figure past a foe "
            "(movement must be left after entering the hex)"
        )
    if cmd.over and not has_automatic_evade(c):
        problems.append(f"{c['name']} has neither Flight nor Super Jump to go over {foe['name']}")
    if foe.get("position") is None:
        problems.append(f"{foe['name']} has no position")
    refuse(problems, details={"combatant": cid, "target": foe_id})
    path = checked_path(c, cmd.path)
    left = int(fighter(state, cid)["movement_left"])
    if len(path) > left:
        raise movement_cost_error(c, len(path), left)
    foe_hex = as_hex(foe["position"])
    leaving = in_close_combat_with(state, cid, foe_id) and not seat_of(state, cid)["declared_adjacent"]
    if leaving:
        problems = leaving_problems(state, cid)
        seat = seat_of(state, cid)
        entry_edge = seat["entry_edge"]
        if path[0] not in foe_side_hexes(foe_hex, entry_edge):
            # Sent to gurps.move only while leaving is open to him (leaving_problems empty).
            problems.append(
                f"{list(path[0])} is not on {foe['name']}'s side of the hex"
                + ("" if problems else ": leave through your own side with gurps.move")
            )
        came_from: Hex = foe_hex
        onward = path
        before: list[Hex] = []
    else:
        held = shared_hex(state, cid)
        if held is not None and not in_close_combat_with(state, cid, foe_id):
            # Section 4.3: going from a close-combat hex toward another foe is leaving it first.
            barred = leaving_problems(state, cid)
            raise RuleError(
                f"{c['name']} is in close combat at {list(held['at'])}: leave it first "
                + (
                    f"(gurps.move), then evade {foe['name']}"
                    if not barred
                    else f"(and {c['name']} may not leave it now: {'; '.join(barred)})"
                ),
                {"combatant": cid, "target": foe_id},
            )
        if foe_hex not in path:
            raise RuleError(f"the path does not go through {foe['name']}'s hex {list(foe_hex)}")
        i = path.index(foe_hex)
        if i == len(path) - 1:
            raise RuleError(
                f"the path ends in {foe['name']}'s hex: to stop there use gurps.move; "
                "to evade, the path must go on past"
            )
        came_from = path[i - 1] if i > 0 else as_hex(c["position"])
        entry_edge = direction_to(foe_hex, came_from)  # type: ignore[assignment]
        before, onward = path[:i], path[i + 1 :]
        if onward[0] not in foe_side_hexes(foe_hex, entry_edge):
            problems.append(
                f"{list(onward[0])} is on {c['name']}'s own side of {foe['name']}'s hex: "
                "evading means going on through the far side"
            )
    # DECISION (the seed is silent): two foes fill a hex, so by default there is no way past them.
    others = [f for f in in_close_combat_at(state, foe_hex, c["side"]) if f != foe_id]
    if others and option(state, "crowded_evade") == "refuse":
        problems.append(
            f"{foe['name']}'s hex also holds {', '.join(name(state, o) for o in others)}: two foes "
            "fill the hex, so there is no way past them (the GM may allow it: option crowded_evade)"
        )
    for h in [*before, *onward]:
        blockers = in_close_combat_at(state, h, c["side"])
        if blockers:
            problems.append(
                f"the path also crosses {name(state, blockers[0])}'s hex at {list(h)}: "
                "evade one foe per command"
            )
    refuse(problems, details={"combatant": cid, "target": foe_id})

    start = as_hex(c["position"])
    events: list[msgspec.Struct] = []
    if cmd.over:
        # Spec section 4.2: over the foe's reach, automatically; DECISION: no close combat at all.
        events += releases_on_leaving(state, cid) if leaving else []
        events += arrival(
            folded(state, events, evolve_rules),
            Moved(cid, list(path[-1]), "evade", None, list(start)),
            "evade",
        )
        events.append(GurpsMovementUsed(cid, len(path), 0, left - len(path)))
        return events
    if not leaving:
        if before:
            events += arrival(state, Moved(cid, list(came_from), "move", None, list(start)), "move")
        events += entry_events(folded(state, events, evolve_rules), cid, came_from, foe_hex)
    resume = {
        "mover": cid,
        "foe": foe_id,
        "at": list(foe_hex),
        "came_from": list(came_from),
        "onward": [list(h) for h in onward],
        "approach": "",
        "entry_edge": entry_edge,
        "leaving": leaving,
        "hexes": len(path),
        "left_after": left - len(path),
        "modifiers": [msgspec.to_builtins(m) for m in cmd.modifiers],
    }
    if others:
        resume["then"] = others  # crowded_evade each_foe: every foe in the hex is asked in turn
    return events + challenge(folded(state, events, evolve_rules), resume, foe_id, dice)


def challenge(state: dict[str, Any], resume: dict[str, Any], foe_id: str, dice: Dice) -> list[msgspec.Struct]:
    """Ask `foe_id` whether he tries to stop the mover (the GM's foes stop at once under assume_foes_stop)."""
    c = state["combatants"][resume["mover"]]
    foe = state["combatants"][foe_id]
    approach = arc_of(foe.get("facing"), resume["entry_edge"])
    resume = {**resume, "foe": foe_id, "approach": approach}
    events: list[msgspec.Struct] = [EvadeChallenged(resume["mover"], foe_id, resume["at"], approach)]
    who = asked_of(state, foe_id)
    if option(state, "assume_foes_stop") and who == "gm":
        # Section 4.2 OPTION: the GM's foes always stop, without being asked.
        return events + resolve_evade(folded(state, events, evolve_rules), resume, True, dice)
    events.append(
        ReactionRequested(
            id="",
            kind="evade_stop",
            combatant=foe_id,
            asked_of=who,
            options=["stop", "let_pass"],
            default="stop",
            resume=resume,
            question=f"{c['name']} tries to evade through {foe['name']}'s hex {approach_words(approach)}: "
            f"stop {c['name']} (Quick Contest of DX) or let {c['name']} pass?",
        )
    )
    return events


def approach_words(approach: str) -> str:
    """ "from behind" etc."""
    return EVADE_APPROACH_MODIFIERS[approach][1]


def resolve_evade(
    state: dict[str, Any], payload: dict[str, Any], stop: bool, dice: Dice, reaction_id: str | None = None
) -> list[msgspec.Struct]:
    """The foe's answer: let pass (no roll), or stop him with a Quick Contest of DX."""
    mover, foe_id = payload["mover"], payload["foe"]
    at = as_hex(payload["at"])
    gone = [x for x in (mover, foe_id) if x not in state["combatants"]]
    if (
        gone
        or as_hex(state["combatants"][mover]["position"]) != at
        or as_hex(state["combatants"][foe_id]["position"]) != at
    ):
        reason = "a figure of the evade is gone" if gone else "the figures are no longer in the same hex"
        return [ReactionCancelled(reaction_id or "", reason)] if reaction_id else []
    events: list[msgspec.Struct] = [EvadeAnswered(foe_id, mover, stop)]
    if not stop:
        return events + _past(state, payload, dice)
    c = state["combatants"][mover]
    foe = state["combatants"][foe_id]
    gm_mods = [Modifier(int(m["value"]), str(m["reason"])) for m in payload.get("modifiers", [])]
    mover_roll = success_roll(
        dice,
        combatant=mover,
        purpose="evade",
        base=int(stats(c)["DX"]),
        base_name="DX",
        modifiers=evade_modifiers(foe, payload["approach"]) + shield_dx_modifiers(state, mover) + gm_mods,
    )
    foe_roll = success_roll(
        dice,
        combatant=foe_id,
        purpose="evade_resist",
        base=int(stats(foe)["DX"]),
        base_name="DX",
        modifiers=dx_modifiers(state, foe_id),
    )
    contest = quick_contest(mover_roll, foe_roll)
    events += [
        mover_roll.event,
        foe_roll.event,
        QuickContestResolved(
            "evade",
            [contest_side(mover_roll), contest_side(foe_roll)],
            contest.winner,
            contest.margin_of_victory,
        ),
    ]
    if contest.winner == mover:
        return events + _past(state, payload, dice)
    return events + _stopped(state, payload)


def _past(state: dict[str, Any], payload: dict[str, Any], dice: Dice) -> list[msgspec.Struct]:
    """Past this foe: on to the next one in a crowded hex, or out through the far side."""
    then = [f for f in payload.get("then", []) if f in state["combatants"]]
    if then:
        return challenge(state, {**payload, "then": then[1:]}, then[0], dice)
    return _passes(state, payload)


def _passes(state: dict[str, Any], payload: dict[str, Any]) -> list[msgspec.Struct]:
    mover = payload["mover"]
    onward = [as_hex(h) for h in payload["onward"]]
    at = as_hex(payload["at"])
    events: list[msgspec.Struct] = releases_on_leaving(state, mover)
    steps = [(Moved(mover, list(onward[0]), "evade", None, list(at)), "evade")]
    if len(onward) > 1:
        steps.append((Moved(mover, list(onward[-1]), "move", None, list(onward[0])), "move"))
    events += arrivals(folded(state, events, evolve_rules), steps)
    events.append(GurpsMovementUsed(mover, payload["hexes"], 0, payload["left_after"]))
    return events


def _stopped(state: dict[str, Any], payload: dict[str, Any]) -> list[msgspec.Struct]:
    mover, foe = payload["mover"], payload["foe"]
    at = as_hex(payload["at"])
    came_from = as_hex(payload["came_from"])
    events: list[msgspec.Struct] = [EvadeStopped(mover, foe, list(at))]
    if payload["leaving"]:
        # Section 4.2: a figure leaving under 4.3 stays in the hex.
        events.append(GurpsMovementUsed(mover, 0, 0, 0, stopped=True))
        return events
    if option(state, "failed_evade_stop") == "adjacent":
        events += arrival(state, Moved(mover, list(came_from), "disengage", None, list(at)), "stopped")
    else:
        events.append(stop_facing_foe(mover, came_from, at))
    entered = payload["hexes"] - len(payload["onward"])
    events.append(GurpsMovementUsed(mover, entered, 0, 0, stopped=True))
    return events


def resume_evade(
    state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
) -> list[msgspec.Struct]:
    """Continue after `evade_stop` was answered."""
    if answer.params:
        raise BadCommand(f"an evade_stop answer takes no fields, not {sorted(answer.params)}", "params")
    if answer.choice not in ("stop", "let_pass"):
        raise RuleError(f"{answer.choice!r} is not an answer to an evade: stop or let_pass")
    return resolve_evade(state, pending["resume"], answer.choice == "stop", dice, pending["id"])
