"""After a round: push-backs and follow-ups (spec 4.10-4.11; §Push-backs, §Follow-Ups)."""

from __future__ import annotations

import math
from typing import Any

import msgspec

from events.common import ActionDeclared, ActionSpent, FollowedUp, Moved, PushedBack, ReactionRequested
from events.dice import Dice
from rules.interface import Answer, BadCommand, RuleError
from rules.plane import (
    base_gap,
    centroid,
    distance,
    inches,
    is_point,
    round_half_up,
    rounded,
    step_away,
    step_toward,
    touch_along,
    where,
)
from rules.refusals import refuse
from rules.rogue_trader.combat_round import emit_follow_ups, owed_followers
from rules.rogue_trader.commands import FollowUp, PushBack
from rules.rogue_trader.contact import join, leave
from rules.rogue_trader.events import RtHeldGround
from rules.rogue_trader.models import (
    contacts_of,
    is_enemy,
    radius,
    turn,
    unit_leadership,
    unit_members,
    unit_name,
    unit_named,
)
from rules.rogue_trader.tables import CONTACT_TOLERANCE
from rules.working import Working

State = dict[str, Any]
PUSH_BACK = 200  # 2", §Push-backs
EPS = 1e-6


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
    _push(
        t, {"unit": uid, "movers": movers, "per_model": cmd.per_model, "rulings": {}, "followers": followers}
    )
    return t.events


STOP_KIND = "push_back_stop"
STOP_OPTIONS = ["short", "place"]
# What respond's params may carry with each answer to where a push-back stops (playing.REACTIONS).
STOP_PARAMS = {"short": frozenset(), "place": frozenset({"to"})}


def _push(t: Working, push: dict[str, Any]) -> None:
    """The push-back's `movers` in turn, each straight away from the enemies it touches (`per_model`: the
    command's settings; `rulings`: the GM's answers so far); one whose way ends on (or runs into) another
    model's base is put to the GM (`push_back_stop`, its `resume` this push from that model on), and the
    rest wait for the answer. Then the `followers`' follow-ups are owed."""
    movers, per_model, rulings = push["movers"], push["per_model"], push["rulings"]
    for i, m in enumerate(movers):
        s = t.state
        if m not in s["combatants"] or not contacts_of(s, m):
            continue
        c = s["combatants"][m]
        frm = list(c["position"])
        ruled = rulings.get(m, {})
        if "to" in ruled:
            to = list(ruled["to"])
            length = distance(frm, to)
        else:
            length, full = push_line(s, m, per_model.get(m, {}))
            if "stop_after" in ruled:
                length = min(length, ruled["stop_after"])
            elif (block := in_the_way(s, m, full)) is not None:
                t.emit(_stop_question(s, m, block, length, {**push, "movers": movers[i:]}))
                return
            to = rounded(step_away(frm, _away(s, m), length))
        t.emit(PushedBack(combatant=m, to=to, distance=round_half_up(length), from_=frm))
        t.emit(Moved(combatant=m, to=to, reason="push_back", from_=frm))
        leave(t, m, "push_back")
    emit_follow_ups(t, push["followers"])


def _away(s: State, m: str) -> list[float]:
    return centroid([s["combatants"][e]["position"] for e in contacts_of(s, m)])


def push_line(s: State, m: str, params: dict[str, int]) -> tuple[float, list[float]]:
    """The push-back's length (2", shortened by terrain or `stop_after`) and where it would end."""
    length = PUSH_BACK / params.get("terrain_divisor", 1)
    if "stop_after" in params:
        length = min(length, params["stop_after"])
    return length, step_away(s["combatants"][m]["position"], _away(s, m), length)


def in_the_way(s: State, m: str, to: list[float]) -> tuple[str, float] | None:
    """The first model whose base the moving base would overlap on its straight way to `to`, and how far
    it gets before the bases touch (rounded down, so it stops clear); None when the way is clear."""
    c = s["combatants"][m]
    met = []
    for o in s["combatants"].values():
        if o["id"] == m or o.get("position") is None:
            continue
        reach = radius(c) + radius(o)
        if touch_along(c["position"], to, o["position"], reach - CONTACT_TOLERANCE) is not None:
            touching = touch_along(c["position"], to, o["position"], reach) or 0.0
            met.append((math.floor(touching), o["id"]))
    if not met:
        return None
    stop, who = min(met)
    return who, stop


def _stop_question(
    s: State, m: str, block: tuple[str, float], length: float, push: dict[str, Any]
) -> ReactionRequested:
    """§Push-backs is silent on a model in the way (a building halts the unit, "still counted as being
    pushed back"): the GM says where it stops (NOTES.md, issue 29 item 9)."""
    who, stop = block
    c, o = s["combatants"][m], s["combatants"][who]
    kin = "a comrade" if not is_enemy(c, o) else "an enemy"
    return ReactionRequested(
        id="",
        kind=STOP_KIND,
        combatant=None,
        asked_of="gm",
        options=list(STOP_OPTIONS),
        default="short",
        resume={**push, "model": m, "blocker": who, "meets_after": stop},
        question=f"{c['name']} is pushed back {inches(length)}, but {o['name']} ({kin}) stands in the way "
        f"after {inches(stop)}: where does {c['name']} stop? short: there, its base against "
        f"{o['name']}'s, still pushed back (the default); place: where the GM sets it down "
        f"(params.to: [x, y] within {inches(length)} of where it stands, on no other model's base and "
        "out of contact with every enemy)",
    )


def resume_push_back(
    state: State, pending: dict[str, Any], answer: Answer, dice: Dice, ruleset: Any
) -> list[msgspec.Struct]:
    """The GM's answer to where a push-back stops; the push-back goes on with the models after it."""
    payload = pending.get("resume") or {}
    m = payload["model"]
    unknown = set(answer.params) - STOP_PARAMS.get(answer.choice, frozenset())
    if unknown:
        raise BadCommand(
            f"unknown field(s) for the answer {answer.choice!r}: {', '.join(sorted(unknown))}",
            sorted(unknown)[0],
        )
    rulings = dict(payload.get("rulings") or {})
    if m in state["combatants"] and contacts_of(state, m):
        length, full = push_line(state, m, (payload.get("per_model") or {}).get(m, {}))
        if answer.choice == "place":
            rulings[m] = {"to": _placed(state, m, answer.params.get("to"), length)}
        else:
            block = in_the_way(state, m, full)
            rulings[m] = {"stop_after": block[1] if block else PUSH_BACK}
    t = Working(state, ruleset.evolve)
    _push(t, {k: payload[k] for k in ("unit", "movers", "per_model", "followers")} | {"rulings": rulings})
    return t.events


def _placed(state: State, m: str, to: Any, length: float) -> list[int]:
    """A spot the GM sets a pushed-back model down at: within the push-back's length, on no other base,
    touching no enemy (a push-back leaves the combat)."""
    if not is_point(to):
        raise BadCommand("place needs params.to: [x, y] in hundredths of an inch", "to")
    c = state["combatants"][m]
    frm = c["position"]
    problems = []
    if distance(frm, to) > length + EPS:
        problems.append(
            f"{where(to)} is {inches(distance(frm, to))} from {c['name']}, farther than its push-back of "
            f"{inches(length)}"
        )
    for o in state["combatants"].values():
        if o["id"] == m or o.get("position") is None:
            continue
        gap = base_gap(to, radius(c), o["position"], radius(o))
        if is_enemy(c, o) and gap <= CONTACT_TOLERANCE:
            problems.append(f"{where(to)} is in base contact with {o['name']}, an enemy")
        elif gap < -CONTACT_TOLERANCE:
            problems.append(f"{where(to)} is on {o['name']}'s base")
    refuse(problems, details={"combatant": m, "to": list(to)})
    return [int(to[0]), int(to[1])]


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


__all__ = ["decide_push_back", "decide_follow_up", "emit_follow_ups", "resume_push_back"]
