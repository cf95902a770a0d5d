"""`evolve`: the ruleset's part of the state (spec §3). Pure: copies what it changes and records only what
events say (outcomes were judged in `decide`). An event naming a model a `void` removed raises `SubjectGone`
(the common fold lists it in `inconsistencies`); an event it handles but cannot apply raises (a bug, loud)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rules.interface import require_present

State = dict[str, Any]

# ActionSpent reasons that leave a model stationary for the rest of the turn (§Follow-Ups; §Breaking Off).
STATIONARY_WHYS = frozenset({"opponent_broke_off", "opponents_slain", "held_ground"})


def initial_rules_state() -> State:
    """The ruleset's state before any event."""
    return {
        "turn": 0,
        "sides": [],
        "models": {},
        "units": {},
        "contacts": [],
        "groups": {},
        "charge": None,
        "allocations": {},
        "owed": {"push_back": {}, "follow_up": {}},
        "results": {},
    }


def _groups(contacts: list[list[str]], models: dict[str, Any]) -> dict[str, list[str]]:
    """Connected components of the contact graph; id = smallest model id (spec §3). DECISION: the
    engaged models of one unit are linked too, so a unit's round result counts all its fights (E7)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in contacts:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    by_unit: dict[str, str] = {}
    for x in sorted(parent):
        uid = (models.get(x) or {}).get("unit")
        if uid is None:
            continue
        if uid in by_unit:
            ra, rb = find(by_unit[uid]), find(x)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        else:
            by_unit[uid] = x
    comps: dict[str, list[str]] = {}
    for x in parent:
        comps.setdefault(find(x), []).append(x)
    return {min(m): sorted(m) for m in comps.values()}


def _set_contacts(r: State, contacts: list[list[str]]) -> None:
    r["contacts"] = sorted(contacts)
    r["groups"] = _groups(r["contacts"], r["models"])


def _model(r: State, cid: str) -> dict[str, Any] | None:
    return r["models"].get(cid)


def _update_model(r: State, cid: str, **changes: Any) -> None:
    """Record facts about a model the event names; a model a `void` removed is `SubjectGone`."""
    require_present(r["models"], cid, "model")
    r["models"] = {**r["models"], cid: {**r["models"][cid], **changes}}


def _joined(r: State, d: dict[str, Any]) -> None:
    stats = d.get("stats") or {}
    cid = d["id"]
    uid = stats.get("unit") or cid
    r["models"] = {
        **r["models"],
        cid: {
            "unit": uid,
            "side": d.get("side"),
            "special_attacks": None,
            "living": None,
            "uphill_over": [],
            "behind_obstacle": False,
            "obstacle_against": [],
            "prepared_position": False,
            "coherency": "ok",
        },
    }
    units = dict(r["units"])
    unit = dict(
        units.get(uid)
        or {
            "members": [],
            "leader": None,
            "split_from": None,
            "orders": "normal",
            "name": stats.get("unit_name") or uid,
        }
    )
    unit["members"] = sorted({*unit["members"], cid})
    if stats.get("leader"):
        unit["leader"] = cid
    units[uid] = unit
    r["units"] = units
    if d.get("side") is not None and d["side"] not in r["sides"]:
        r["sides"] = [*r["sides"], d["side"]]


def _removed(r: State, cid: str) -> None:
    _set_contacts(r, [p for p in r["contacts"] if cid not in p])
    if r["charge"] and r["charge"].get("charger") == cid:
        r["charge"] = None
    m = r["models"].get(cid)
    if m:
        uid = m["unit"]
        if uid in r["units"]:
            unit = r["units"][uid]
            r["units"] = {
                **r["units"],
                uid: {
                    **unit,
                    "members": [x for x in unit["members"] if x != cid],
                    "leader": None if unit.get("leader") == cid else unit.get("leader"),
                },
            }
    r["models"] = {k: v for k, v in r["models"].items() if k != cid}
    r["allocations"] = {k: v for k, v in r["allocations"].items() if k != cid}


def _contact_joined(r: State, d: dict[str, Any]) -> None:
    # The first two combatants are the pair that made contact; any others are members of a group
    # that merged into this one (kept so the engine's group list stays whole).
    combatants = d.get("combatants") or []
    if len(combatants) >= 2:
        a, b = sorted(combatants[:2])
        if [a, b] not in r["contacts"]:
            _set_contacts(r, [*r["contacts"], [a, b]])
    charge = r["charge"]
    if charge and charge.get("charger") in combatants[:2]:
        _update_model(r, charge["charger"], charged_turn=r["turn"], charge_target=charge.get("target"))
        r["charge"] = None


def _moved(r: State, d: dict[str, Any]) -> None:
    cid = d["combatant"]
    reason = d.get("reason")
    if reason in ("move", "charge"):
        _update_model(r, cid, moved_turn=r["turn"])
    elif reason == "run_away":
        _update_model(r, cid, ran_away_turn=r["turn"])
        charge = r["charge"]
        if charge and charge.get("target") == cid:
            r["charge"] = {**charge, "ran": sorted({*charge.get("ran", []), cid})}
    elif reason == "disengage":
        _update_model(r, cid, broke_off_turn=r["turn"])


def _action_declared(r: State, d: dict[str, Any]) -> None:
    action = d.get("action")
    cid = d.get("combatant")
    if action == "charge" and cid:
        targets = d.get("targets") or [None]
        params = d.get("params") or {}
        r["charge"] = {
            "charger": cid,
            "target": targets[0],
            "start": params.get("start"),
            "path": params.get("path", []),
            "terrain_divisor": params.get("terrain_divisor", 1),
            "reach": params.get("reach"),
            "ran": [],
            "turn": r["turn"],
        }
    elif action == "stand_and_fire" and cid:
        _update_model(r, cid, fired_turn=r["turn"])
    elif action == "break_off" and cid:
        _update_model(r, cid, broke_off_turn=r["turn"])
    elif action in ("follow_up", "push_back"):
        # The owed step is being carried out now: whatever it leaves undone is no longer owed.
        uid = (d.get("params") or {}).get("unit")
        if uid:
            _owed(r, action, uid, None)


def _action_spent(r: State, d: dict[str, Any]) -> None:
    cid, why = d["combatant"], d.get("why")
    if why == "failed_charge":
        _update_model(r, cid, failed_charge_turn=d.get("turn", r["turn"]))
    elif why in STATIONARY_WHYS:
        _update_model(r, cid, stationary_turn=d.get("turn", r["turn"]))
    elif why == "broke_off":
        _update_model(r, cid, broke_off_turn=d.get("turn", r["turn"]))


def _round_resolved(r: State, d: dict[str, Any]) -> None:
    for cid in d.get("models", []):
        # The round's summary names every model that fought, those slain in it (already removed) too.
        if cid in r["models"]:
            _update_model(r, cid, resolved_round=d["round"])
    results = dict(r["results"])
    for uid, result in (d.get("results") or {}).items():
        results[uid] = {"round": d["round"], "result": result, "group": d.get("group")}
    r["results"] = results
    r["last_round"] = {
        "round": d["round"],
        "group": d.get("group"),
        "pairs": d.get("pairs", []),
        "results": d.get("results", {}),
    }


def _pushed_back(r: State, d: dict[str, Any]) -> None:
    cid = d["combatant"]
    # Who pushed it back (spec §3): the enemies it is still in contact with (`PushedBack` precedes the
    # `CloseCombatLeft` that ends those contacts).
    by = sorted({x for pair in r["contacts"] if cid in pair for x in pair if x != cid})
    _update_model(r, cid, pushed_back_round=r["turn"], pushed_back_by=by)
    m = r["models"].get(cid)
    if not m:
        return
    uid = m["unit"]
    if uid in r["units"]:
        r["units"] = {**r["units"], uid: {**r["units"][uid], "pushed_back_round": r["turn"]}}
    owed = r["owed"]["push_back"].get(uid)
    if owed:
        left = [x for x in owed["models"] if x != cid]
        _owed(r, "push_back", uid, {**owed, "models": left} if left else None)


def _followed_up(r: State, d: dict[str, Any]) -> None:
    cid = d["combatant"]
    _update_model(r, cid, followed_up_round=r["turn"])
    m = r["models"].get(cid)
    if not m:
        return
    uid = m["unit"]
    owed = r["owed"]["follow_up"].get(uid)
    if owed:
        followers = {k: v for k, v in owed["followers"].items() if k != cid}
        _owed(r, "follow_up", uid, {**owed, "followers": followers} if followers else None)


def _owed(r: State, kind: str, uid: str, value: dict[str, Any] | None) -> None:
    table = dict(r["owed"][kind])
    if value is None:
        table.pop(uid, None)
    else:
        table[uid] = value
    r["owed"] = {**r["owed"], kind: table}


def _split(r: State, d: dict[str, Any]) -> None:
    uid, new = d["unit"], d["new_unit"]
    models = list(d.get("models", []))
    units = dict(r["units"])
    if uid in units:
        units[uid] = {**units[uid], "members": [m for m in units[uid]["members"] if m not in models]}
    units[new] = {
        "members": sorted(models),
        "leader": None,
        "split_from": uid,
        "orders": "none",
        "name": f"{(units.get(uid) or {}).get('name', uid)} (split)",
        "intentional": d.get("intentional", False),
    }
    r["units"] = units
    for m in models:
        _update_model(r, m, unit=new, coherency="split")
    _set_contacts(r, r["contacts"])


def _rejoined(r: State, d: dict[str, Any]) -> None:
    uid, into = d["unit"], d["into"]
    units = dict(r["units"])
    moving = list((units.get(uid) or {}).get("members", []))
    units.pop(uid, None)
    if into in units:
        units[into] = {**units[into], "members": sorted({*units[into]["members"], *moving})}
    r["units"] = units
    for m in moving:
        _update_model(r, m, unit=into, coherency="ok")
    _set_contacts(r, r["contacts"])


def _turn_started(r: State, d: dict[str, Any]) -> None:
    r["turn"] = d["turn"]


def _phase_started(r: State, d: dict[str, Any]) -> None:
    r["phase_turn"] = r["turn"]


def _contact_left(r: State, d: dict[str, Any]) -> None:
    _set_contacts(r, [p for p in r["contacts"] if d["combatant"] not in p])


def _charge_failed(r: State, d: dict[str, Any]) -> None:
    _update_model(r, d["charger"], failed_charge_turn=d.get("turn", r["turn"]))
    r["charge"] = None


def _charge_retargeted(r: State, d: dict[str, Any]) -> None:
    if r["charge"]:
        r["charge"] = {**r["charge"], "target": d["to_target"]}


def _attacks_allocated(r: State, d: dict[str, Any]) -> None:
    r["allocations"] = {
        **r["allocations"],
        d["combatant"]: {"round": d["round"], "allocations": d["allocations"]},
    }


def _push_back_owed(r: State, d: dict[str, Any]) -> None:
    _owed(r, "push_back", d["unit"], {"round": d["round"], "models": list(d["models"])})


def _follow_up_owed(r: State, d: dict[str, Any]) -> None:
    _owed(
        r,
        "follow_up",
        d["unit"],
        {
            "round": d["round"],
            "followers": dict(d["followers"]),
            "may_hold_without_test": d["may_hold_without_test"],
        },
    )


def _held_ground(r: State, d: dict[str, Any]) -> None:
    _owed(r, "follow_up", d["unit"], None)
    for m in (r["units"].get(d["unit"]) or {}).get("members", []):
        _update_model(r, m, stationary_turn=r["turn"])


def _coherency_checked(r: State, d: dict[str, Any]) -> None:
    if d["unit"] in r["units"]:
        r["units"] = {
            **r["units"],
            d["unit"]: {
                **r["units"][d["unit"]],
                "coherency": {
                    "turn": r["turn"],
                    "main_body": list(d.get("main_body", [])),
                    "strays": [dict(x) for x in d.get("strays", [])],
                    "ruling_owed": d.get("ruling_owed", False),
                },
            },
        }
    for m in d.get("main_body", []):
        _update_model(r, m, coherency="ok")
    for s in d.get("strays", []):
        _update_model(r, s["model"], coherency=s["status"])


def _situation_set(r: State, d: dict[str, Any]) -> None:
    _update_model(
        r,
        d["combatant"],
        uphill_over=list(d["uphill_over"]),
        behind_obstacle=d["behind_obstacle"],
        obstacle_against=list(d["obstacle_against"]),
        prepared_position=d["prepared_position"],
        living=d["living"],
    )


def _variant_determined(r: State, d: dict[str, Any]) -> None:
    _update_model(r, d["combatant"], special_attacks=list(d["attacks"]), variant=d["variant"])


# Each event type the fold applies, with what it does to the (copied) rules state; any other is ignored.
APPLY: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "CombatantJoined": _joined,
    "CombatantRemoved": lambda r, d: _removed(r, d["combatant"]),
    "TurnStarted": _turn_started,
    "PhaseStarted": _phase_started,
    "ActionDeclared": _action_declared,
    "Moved": _moved,
    "CloseCombatJoined": _contact_joined,
    "CloseCombatLeft": _contact_left,
    "ActionSpent": _action_spent,
    "RtChargeFailed": _charge_failed,
    "RtChargeRetargeted": _charge_retargeted,
    "RtAttacksAllocated": _attacks_allocated,
    "RtCombatRoundResolved": _round_resolved,
    "PushedBack": _pushed_back,
    "FollowedUp": _followed_up,
    "RtPushBackOwed": _push_back_owed,
    "RtFollowUpOwed": _follow_up_owed,
    "RtHeldGround": _held_ground,
    "RtCoherencyChecked": _coherency_checked,
    "RtUnitSplit": _split,
    "RtUnitRejoined": _rejoined,
    "RtSituationSet": _situation_set,
    "RtCreatureVariantDetermined": _variant_determined,
}


def evolve_rules(rules_state: State, event: Any) -> State:
    """The new `state["rules"]` after one event; an event it cannot apply raises."""
    base = rules_state if rules_state else initial_rules_state()
    r = dict(base)
    for key, value in initial_rules_state().items():
        r.setdefault(key, copy.deepcopy(value))
    apply = APPLY.get(event.type)
    if apply is not None:
        apply(r, event.data)
    return r
