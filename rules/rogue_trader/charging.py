"""Charges and the charged model's answers (spec 4.1-4.3; §Entering Hand-To-Hand Combat, §Being
Charged, §Unit Coherency During Charges)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import (
    ActionDeclared,
    ActionSpent,
    ConditionChanged,
    FacingChanged,
    Moved,
    ReactionCancelled,
    ReactionRequested,
)
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.interface import Answer, BadCommand, RuleError
from rules.plane import (
    along_path,
    base_gap,
    distance,
    facing_toward,
    path_length,
    round_half_up,
    rounded,
    step_away,
    step_toward,
)
from rules.refusals import refuse
from rules.rogue_trader.attacks import Blow, resolve_blow
from rules.rogue_trader.commands import Charge, Retarget
from rules.rogue_trader.contact import join, slay
from rules.rogue_trader.events import RtChargeFailed, RtChargeRetargeted
from rules.rogue_trader.models import (
    contacts_of,
    disadvantaged,
    effective_move,
    has_flag,
    is_dead,
    is_enemy,
    model,
    radius,
    require_alive,
    rules_model,
    stat,
    turn,
    weapon_by_id,
    weapons,
)
from rules.rogue_trader.movement import turn_flags_problems, whose_phase_problems
from rules.rogue_trader.options import option
from rules.working import Working

State = dict[str, Any]
CHARGE_RESPONSES = ["hold", "stand_and_fire", "run_away"]
# What respond's params may carry with a charge answer (the guide describes each: playing.REACTIONS).
CHARGE_PARAMS = frozenset({"turn_to_face", "weapon", "modifiers", "terrain_divisor"})
EPS = 1e-6


def double_move(c: dict[str, Any], terrain_divisor: int) -> float:
    """2 x effective M / terrain divisor, in hundredths (charge reach and run-away distance)."""
    return 2 * effective_move(c) * 100 / terrain_divisor


def _divisor(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BadCommand(f"{field} must be a whole number of at least 1", field)
    return value


def decide_charge(state: State, cmd: Charge, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """4.1: declare; the target's answer (a `charged` reaction) comes before the charger moves."""
    c = require_alive(state, cmd.combatant)
    target = require_alive(state, cmd.target, "target")
    div = _divisor(cmd.terrain_divisor, "terrain_divisor")
    for i, p in enumerate(cmd.path):
        if len(p) != 2:
            raise BadCommand(f"path[{i}] must be [x, y] in hundredths of an inch", f"path[{i}]")
    problems = []
    problems += whose_phase_problems(state, c, "charges")
    if contacts_of(state, c["id"]):
        problems.append(f"{c['name']} is in close combat and may leave it only by breaking off")
    problems += turn_flags_problems(state, c)
    if disadvantaged(c):
        problems.append(f"{c['name']} is {', '.join(disadvantaged(c))} and cannot charge")
    if not is_enemy(c, target):
        problems.append(f"{target['name']} is not an enemy of {c['name']}")
    if state["rules"].get("charge"):
        problems.append("another charge is still being resolved")
    refuse(problems, details={"combatant": c["id"], "target": target["id"]})
    reach = double_move(c, div)
    declared = ActionDeclared(
        combatant=c["id"],
        action="charge",
        targets=[target["id"]],
        params={
            "path": [list(p) for p in cmd.path],
            "terrain_divisor": div,
            "start": list(c["position"]),
            "reach": round_half_up(reach),
        },
    )
    return [declared, charged_request(state, c, target)]


def charged_request(state: State, charger: dict[str, Any], target: dict[str, Any]) -> ReactionRequested:
    """The charged model's choice (4.2): hold, stand and fire, or run away, those the rules allow now
    (issue 29 item 7: a question never offers what its answer would be refused for)."""
    closed = closed_answers(state, target)
    options = [o for o in CHARGE_RESPONSES if o not in closed]
    words = [o.replace("_", " ") for o in options]
    asked = (
        words[0]
        if len(words) == 1
        else ", ".join(words[:-1]) + (", or " if len(words) > 2 else " or ") + words[-1]
    )
    notes = [
        *dict.fromkeys(closed.values()),
        f"with any answer {target['name']} may turn to face {charger['name']}",
    ]
    return ReactionRequested(
        id="",
        kind="charged",
        combatant=target["id"],
        asked_of=asked_of(state, target["id"]),
        options=options,
        default="hold",
        allows=[],
        resume={"charger": charger["id"], "target": target["id"]},
        question=f"{charger['name']} charges {target['name']}: {asked}? ({'; '.join(notes)})",
    )


def closed_answers(state: State, target: dict[str, Any]) -> dict[str, str]:
    """The answers to a charge the rules close now, each with why (`Ruleset.refused_choice` says it to
    one who sends it anyway): a model in base contact only holds; §Being Charged's "not both"; one stand
    and fire a turn; no weapon that may fire (A17, A19)."""
    name = target["name"]
    if contacts_of(state, target["id"]):
        why = f"{name} is already in base contact with an enemy, so it may only hold, turning to face or not"
        return {"stand_and_fire": why, "run_away": why}
    out = {}
    for choice in ("stand_and_fire", "run_away"):
        for why in _not_both(state, target, choice):
            out[choice] = why
    if "stand_and_fire" not in out:
        carried = weapons(target)
        if rules_model(state, target["id"]).get("fired_turn") == turn(state):
            out["stand_and_fire"] = f"{name} has already stood and fired this turn"
        elif not any(not has_flag(w, "S") for w in carried):
            out["stand_and_fire"] = (
                f"{name} carries no weapon that may stand and fire, a slow one not counting"
            )
        elif option(state, "slow_weapon_bars_model") and any(has_flag(w, "S") for w in carried):
            out["stand_and_fire"] = f"{name} carries a slow weapon and so may not fire"
    return out


def resume_charged(
    state: State, pending: dict[str, Any], answer: Answer, dice: Dice, ruleset: Any
) -> list[msgspec.Struct]:
    """4.2: the answer, then the charge goes on (or waits for a retarget after a run)."""
    payload = pending.get("resume") or {}
    charger_id, target_id = payload.get("charger"), payload.get("target")
    charge = state["rules"].get("charge")
    choice = answer.choice
    if choice not in pending.get("options", []):
        raise BadCommand(f"choice must be one of {', '.join(pending.get('options', []))}", "choice")
    params = answer.params or {}
    unknown = set(params) - CHARGE_PARAMS
    if unknown:
        raise BadCommand(
            f"unknown field(s) for a charge response: {', '.join(sorted(unknown))}", sorted(unknown)[0]
        )
    if (
        charge is None
        or charge.get("charger") != charger_id
        or charge.get("target") != target_id
        or charger_id not in state["combatants"]
        or target_id not in state["combatants"]
    ):
        return [ReactionCancelled(id=pending["id"], reason="the charge is no longer under way")]
    t = Working(state, ruleset.evolve)
    charger = state["combatants"][charger_id]
    target = state["combatants"][target_id]
    turn_to_face = params.get("turn_to_face", False)
    if not isinstance(turn_to_face, bool):
        raise BadCommand("turn_to_face must be true or false", "turn_to_face")
    decl_params: dict[str, Any] = {"turn_to_face": turn_to_face}
    refuse(_not_both(state, target, choice), details={"combatant": target_id, "choice": choice})
    if choice == "stand_and_fire":
        weapon = _fire_weapon(state, target, params.get("weapon"))
        decl_params["weapon"] = weapon["id"]
    t.emit(ActionDeclared(combatant=target_id, action=choice, targets=[charger_id], params=decl_params))
    if turn_to_face:
        t.emit(
            FacingChanged(combatant=target_id, facing=facing_toward(target["position"], charger["position"]))
        )
    if choice == "stand_and_fire":
        _stand_and_fire(t, dice, target_id, charger_id, weapon, _gm_modifiers(params.get("modifiers")))
        if charger_id not in t.state["combatants"]:
            return t.events
    elif choice == "run_away":
        _run_away(t, target_id, charger_id, _divisor(params.get("terrain_divisor", 1), "terrain_divisor"))
        if retarget_candidates(t.state):
            return t.events  # the charger may name another target (4.3)
    finish_charge(t)
    return t.events


NOT_BOTH = "§Being Charged: a model may not 'stand and fire' and 'run away'"


def _not_both(state: State, c: dict[str, Any], choice: str) -> list[str]:
    """A second charge in one turn: whichever of stand and fire / run away the model did, not the other."""
    rm = rules_model(state, c["id"])
    if choice == "run_away" and rm.get("fired_turn") == turn(state):
        return [f"{NOT_BOTH}; {c['name']} stood and fired this turn, so it may hold, turning to face or not"]
    if choice == "stand_and_fire" and rm.get("ran_away_turn") == turn(state):
        return [f"{NOT_BOTH}; {c['name']} ran away this turn, so it may hold or run away again"]
    return []


def _gm_modifiers(raw: Any) -> list[Modifier]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadCommand("modifiers must be a list of {value, reason}", "modifiers")
    out = []
    for i, m in enumerate(raw):
        value = m.get("value") if isinstance(m, dict) else None
        if not isinstance(value, int) or isinstance(value, bool) or not isinstance(m.get("reason"), str):
            raise BadCommand(f"modifiers[{i}] must be {{value: integer, reason: text}}", f"modifiers[{i}]")
        out.append(Modifier(m["value"], m["reason"]))
    return out


def _fire_weapon(state: State, c: dict[str, Any], wid: Any) -> dict[str, Any]:
    """The weapon for stand-and-fire, refusing what §Being Charged forbids (A17, A19)."""
    problems = []
    carried = weapons(c)
    if wid is None:
        shooters = [w for w in carried if not has_flag(w, "S")]
        if len(shooters) != 1:
            raise BadCommand("name the weapon to fire (weapon: its id)", "weapon")
        wid = shooters[0]["id"]
    w = weapon_by_id(c, wid)
    if w is None:
        raise RuleError(f"{c['name']} carries no weapon {wid!r}", {"weapon": wid})
    if has_flag(w, "S"):
        problems.append(f"{w.get('name', wid)} is a slow weapon and cannot stand and fire")
    elif option(state, "slow_weapon_bars_model") and any(has_flag(x, "S") for x in carried):
        problems.append(f"{c['name']} carries a slow weapon and so may not fire")
    if rules_model(state, c["id"]).get("fired_turn") == turn(state):
        problems.append(f"{c['name']} has already stood and fired this turn")
    refuse(problems, details={"combatant": c["id"]})
    return w


def shoot_score(state: State, bs: int) -> int:
    """Stand-and-fire score before the -1: the option's BS chart, else 7 - BS, minimum 2 (spec §1)."""
    chart = option(state, "shoot_to_hit")
    if chart and str(bs) in chart:
        return int(chart[str(bs)])
    return max(2, 7 - bs)


def _stand_and_fire(
    t: Working, dice: Dice, firer_id: str, charger_id: str, w: dict[str, Any], mods: list[Modifier]
) -> None:
    """A shot at the charger before it moves (-1 hurried); a slain charger never moves."""
    s = t.state
    firer = s["combatants"][firer_id]
    charger = s["combatants"][charger_id]
    strength = int(w["S"]) if w.get("S") is not None else stat(firer, "S")
    blow = Blow(
        attacker=firer_id,
        target=charger_id,
        kind="shot",
        strength=strength,
        save_mod=int(w.get("save_mod", 0)),
        damage=str(w.get("damage", 1)),
        table=shoot_score(s, stat(firer, "BS")),
        modifiers=[Modifier(-1, "hurried"), *mods],
        weapon=w["id"],
    )
    result = resolve_blow(dice, blow, charger, _option_defaults(s), "stand_fire_")
    t.extend(result.events)
    if is_dead(t.state["combatants"][charger_id]):
        slay(t, charger_id, remove_now=True)


def _option_defaults(state: State) -> dict[str, Any]:
    return {k: option(state, k) for k in ("high_to_hit", "wound_chart", "strength_save_mods")}


def _run_away(t: Working, runner_id: str, charger_id: str, div: int) -> None:
    """Double move directly away from the charger; routed if the charger can still reach it (A16)."""
    s = t.state
    runner = s["combatants"][runner_id]
    charger = s["combatants"][charger_id]
    length = double_move(runner, div)
    to = rounded(step_away(runner["position"], charger["position"], length))
    t.emit(Moved(combatant=runner_id, to=to, reason="run_away", from_=list(runner["position"])))
    charge = t.state["rules"]["charge"]
    if base_gap(charge["start"], radius(charger), to, radius(runner)) <= charge["reach"] + EPS:
        t.emit(ConditionChanged(combatant=runner_id, condition="routed", on=True))


def retarget_candidates(state: State) -> list[str]:
    """Enemies the charger could switch to: within reach of its start, not already run this charge."""
    charge = state["rules"].get("charge")
    if not charge:
        return []
    charger = state["combatants"].get(charge["charger"])
    if charger is None:
        return []
    out = []
    for cid, c in sorted(state["combatants"].items()):
        if cid == charge["target"] or cid in charge.get("ran", []) or not is_enemy(charger, c) or is_dead(c):
            continue
        if base_gap(charge["start"], radius(charger), c["position"], radius(c)) <= charge["reach"] + EPS:
            out.append(cid)
    return out


def decide_retarget(state: State, cmd: Retarget, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """4.3: name another enemy within reach of the charger's start, or none (the charge goes on)."""
    charge = state["rules"].get("charge")
    c = model(state, cmd.combatant)
    if not charge or charge.get("charger") != c["id"]:
        raise RuleError(f"{c['name']} has no charge under way", {"combatant": c["id"]})
    if charge.get("target") not in charge.get("ran", []):
        raise RuleError(
            f"{c['name']}'s target has not run away, so the charge cannot change target",
            {"combatant": c["id"]},
        )
    t = Working(state, ruleset.evolve)
    if cmd.target is None:
        finish_charge(t)
        return t.events
    target = require_alive(state, cmd.target, "target")
    problems = []
    if not is_enemy(c, target):
        problems.append(f"{target['name']} is not an enemy of {c['name']}")
    if target["id"] in charge.get("ran", []):
        problems.append(f"{target['name']} already ran from this charge")
    gap = base_gap(charge["start"], radius(c), target["position"], radius(target))
    if gap > charge["reach"] + EPS:
        problems.append(
            f'{target["name"]} is {gap / 100:.2f}" away, beyond the charge reach of '
            f'{charge["reach"] / 100:.2f}"'
        )
    refuse(problems, details={"target": target["id"]})
    t.emit(RtChargeRetargeted(charger=c["id"], from_target=charge["target"], to_target=target["id"]))
    t.emit(charged_request(t.state, c, target))
    return t.events


def finish_charge(t: Working) -> None:
    """The charger moves: into contact if the need is within reach, else its full reach toward the
    target, fails and may do nothing more this turn (4.1, A15, A30)."""
    s = t.state
    charge = s["rules"]["charge"]
    charger = s["combatants"][charge["charger"]]
    target = s["combatants"][charge["target"]]
    start = charge["start"]
    waypoints = [start, *charge.get("path", [])]
    last = waypoints[-1]
    centre_gap = distance(last, target["position"])
    touch_len = max(0.0, centre_gap - radius(charger) - radius(target))
    touching = step_toward(last, target["position"], touch_len)
    route = [*waypoints, touching]
    needed = path_length(route)
    reach = charge["reach"]
    # The reach recorded in the declaration is rounded; recompute it exactly for the comparison.
    exact_reach = double_move(charger, int(charge.get("terrain_divisor", 1)))
    if needed <= exact_reach + EPS:
        to = rounded(touching)
        t.emit(
            Moved(
                combatant=charger["id"],
                to=to,
                reason="charge",
                from_=list(charger["position"]),
                facing=facing_toward(to, target["position"]),
            )
        )
        join(t, charger["id"], target["id"])
        return
    to = rounded(along_path(route, exact_reach))
    t.emit(
        Moved(
            combatant=charger["id"],
            to=to,
            reason="charge",
            from_=list(charger["position"]),
            facing=facing_toward(to, target["position"]),
        )
    )
    t.emit(
        RtChargeFailed(
            charger=charger["id"],
            target=target["id"],
            needed_in=round_half_up(needed),
            reach_in=reach,
            turn=turn(s),
        )
    )
    t.emit(ActionSpent(combatant=charger["id"], turn=turn(s), why="failed_charge"))
