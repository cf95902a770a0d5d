"""The ruleset's part of the state, `state["rules"]` (spec section 3), and its pure, total reducer.

evolve records what events say and never re-judges them: AP left comes from `APSpent.remaining`,
the stun's end from `PulledOffBalance.stunned_until_round`, and so on.
"""

from __future__ import annotations

from typing import Any

from events.envelope import Event

DEFAULT_AP_PER_ROUND = 5

Rules = dict[str, Any]


def initial_rules() -> Rules:
    """The ruleset state before any event."""
    return {
        "round": 0,
        "ap_per_round": {},  # combatant -> AP budget (stats.ap_per_round)
        "ap_left": {},  # combatant -> AP left this round
        "grips": [],  # [{attacker, defender, stage: "pulling" | "swing_pending"}]
        "pending_swings": [],  # [{attacker, defender, destinations, reaction}]
        "stunned": {},  # combatant -> {combatant, until_round (None: until the GM lifts it)}
        "pulled": [],  # this round: [{target, by, from, to, kind, barrier}]
        "shared_hexes": {},  # "q,r" -> [combatants] after an own-hex swing or a won brawl
        "declared": None,  # the last ActionDeclared {action, combatant, targets}, for the log
    }


def hex_key(position: Any) -> str | None:
    """The `shared_hexes` key of a `[q, r]` position."""
    if isinstance(position, (list, tuple)) and len(position) == 2:
        return f"{position[0]},{position[1]}"
    return None


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _without(rules: Rules, cid: str) -> Rules:
    """Forget every trace of a combatant who left the encounter."""
    r = dict(rules)
    r["ap_per_round"] = {k: v for k, v in r["ap_per_round"].items() if k != cid}
    r["ap_left"] = {k: v for k, v in r["ap_left"].items() if k != cid}
    r["grips"] = [g for g in r["grips"] if cid not in (g.get("attacker"), g.get("defender"))]
    r["pending_swings"] = [
        p for p in r["pending_swings"] if cid not in (p.get("attacker"), p.get("defender"))
    ]
    r["stunned"] = {k: v for k, v in r["stunned"].items() if k != cid}
    r["shared_hexes"] = _leave_shared(r["shared_hexes"], cid, None)
    return r


def _leave_shared(shared: dict[str, list[str]], cid: str, staying_at: str | None) -> dict[str, list[str]]:
    """`shared` with `cid` taken out of every hex but `staying_at`; hexes left with one combatant drop out."""
    out: dict[str, list[str]] = {}
    for key, members in shared.items():
        kept = [m for m in members if m != cid or key == staying_at]
        if len(kept) >= 2:
            out[key] = kept
    return out


def _end_grip(rules: Rules, attacker: Any, defender: Any) -> Rules:
    r = dict(rules)
    r["grips"] = [
        g for g in r["grips"] if not (g.get("attacker") == attacker and g.get("defender") == defender)
    ]
    r["pending_swings"] = [
        p
        for p in r["pending_swings"]
        if not (p.get("attacker") == attacker and p.get("defender") == defender)
    ]
    return r


def evolve_rules(rules: Rules, event: Event) -> Rules:
    """The ruleset state after `event`. Pure (copies what it changes); an event it cannot apply raises."""
    data = event.data if isinstance(event.data, dict) else {}
    handler = _HANDLERS.get(event.type)
    return handler(rules, data) if handler else rules  # a type it does not handle leaves it as it was


def _combatant_joined(rules: Rules, d: dict[str, Any]) -> Rules:
    stats = d.get("stats") or {}
    ap = _int(stats.get("ap_per_round"), DEFAULT_AP_PER_ROUND)
    return {
        **rules,
        "ap_per_round": {**rules["ap_per_round"], d["id"]: ap},
        "ap_left": {**rules["ap_left"], d["id"]: ap},
    }


def _combatant_removed(rules: Rules, d: dict[str, Any]) -> Rules:
    return _without(rules, d["combatant"])


def _turn_started(rules: Rules, d: dict[str, Any]) -> Rules:
    # Spec 4.1: applying TurnStarted sets every ap_left back to full; `pulled` is per round.
    return {
        **rules,
        "round": _int(d.get("turn"), rules["round"]),
        "ap_left": dict(rules["ap_per_round"]),
        "pulled": [],
    }


def _ap_spent(rules: Rules, d: dict[str, Any]) -> Rules:
    return {**rules, "ap_left": {**rules["ap_left"], d["combatant"]: _int(d.get("remaining"), 0)}}


def _grip_taken(rules: Rules, d: dict[str, Any]) -> Rules:
    r = _end_grip(rules, d["attacker"], d["defender"])
    r["grips"] = [*r["grips"], {"attacker": d["attacker"], "defender": d["defender"], "stage": "pulling"}]
    return r


def _grip_ended(rules: Rules, d: dict[str, Any]) -> Rules:
    return _end_grip(rules, d.get("attacker"), d.get("defender"))


def _pulled_off_balance(rules: Rules, d: dict[str, Any]) -> Rules:
    a, df = d["attacker"], d["defender"]
    r = _end_grip(rules, a, df)
    r["grips"] = [*r["grips"], {"attacker": a, "defender": df, "stage": "swing_pending"}]
    r["pending_swings"] = [
        *r["pending_swings"],
        {"attacker": a, "defender": df, "destinations": dict(d.get("destinations") or {}), "reaction": None},
    ]
    r["stunned"] = {**r["stunned"], df: {"combatant": df, "until_round": d.get("stunned_until_round")}}
    return r


def _reaction_requested(rules: Rules, d: dict[str, Any]) -> Rules:
    if d.get("kind") != "swing_target":
        return rules
    swings = [
        {**p, "reaction": d.get("id")}
        if p["attacker"] == d.get("combatant") and p.get("reaction") is None
        else p
        for p in rules["pending_swings"]
    ]
    return {**rules, "pending_swings": swings}


def _reaction_cancelled(rules: Rules, d: dict[str, Any]) -> Rules:
    cancelled = [p for p in rules["pending_swings"] if p.get("reaction") == d.get("id")]
    r = rules
    for p in cancelled:
        r = _end_grip(r, p["attacker"], p["defender"])
    return r


def _condition_changed(rules: Rules, d: dict[str, Any]) -> Rules:
    if d.get("condition") != "stunned":
        return rules
    cid = d["combatant"]
    if d.get("on"):
        if cid in rules["stunned"]:
            return rules
        # Stunned by something other than a pull (a GM's ruling): it lasts until lifted.
        return {**rules, "stunned": {**rules["stunned"], cid: {"combatant": cid, "until_round": None}}}
    return {**rules, "stunned": {k: v for k, v in rules["stunned"].items() if k != cid}}


def _action_declared(rules: Rules, d: dict[str, Any]) -> Rules:
    r = {
        **rules,
        "declared": {
            "action": d.get("action"),
            "combatant": d.get("combatant"),
            "targets": list(d.get("targets") or []),
        },
    }
    params = d.get("params") or {}
    if d.get("action") == "swing" and d.get("targets"):
        r["pulled"] = [
            *rules["pulled"],
            {
                "target": d["targets"][0],
                "by": d.get("combatant"),
                "from": params.get("from"),
                "to": params.get("hex"),
                "kind": params.get("to"),
                "barrier": bool(params.get("barrier")),
            },
        ]
    return r


def _close_combat_joined(rules: Rules, d: dict[str, Any]) -> Rules:
    key = hex_key(d.get("at"))
    if key is None:
        return rules
    shared = rules["shared_hexes"]
    for cid in d["combatants"]:
        shared = _leave_shared(shared, cid, key)
    members = list(shared.get(key, []))
    members += [c for c in d["combatants"] if c not in members]
    return {**rules, "shared_hexes": {**shared, key: members}}


def _moved(rules: Rules, d: dict[str, Any]) -> Rules:
    return {
        **rules,
        "shared_hexes": _leave_shared(rules["shared_hexes"], d["combatant"], hex_key(d.get("to"))),
    }


def _close_combat_left(rules: Rules, d: dict[str, Any]) -> Rules:
    return {**rules, "shared_hexes": _leave_shared(rules["shared_hexes"], d["combatant"], None)}


def _ruling_made(rules: Rules, d: dict[str, Any]) -> Rules:
    # A ruling that changes a combatant's AP budget also changes the copy kept here.
    combatants = (d.get("overrides") or {}).get("combatants") or {}
    budgets = dict(rules["ap_per_round"])
    for cid, patch in combatants.items():
        stats = patch.get("stats") if isinstance(patch, dict) else None
        if isinstance(stats, dict) and "ap_per_round" in stats and cid in budgets:
            budgets[cid] = _int(stats["ap_per_round"], DEFAULT_AP_PER_ROUND)
    return {**rules, "ap_per_round": budgets} if budgets != rules["ap_per_round"] else rules


_HANDLERS = {
    "CombatantJoined": _combatant_joined,
    "CombatantRemoved": _combatant_removed,
    "TurnStarted": _turn_started,
    "APSpent": _ap_spent,
    "GripTaken": _grip_taken,
    "GripLost": _grip_ended,
    "GripReleased": _grip_ended,
    "PulledOffBalance": _pulled_off_balance,
    "ReactionRequested": _reaction_requested,
    "ReactionCancelled": _reaction_cancelled,
    "ConditionChanged": _condition_changed,
    "ActionDeclared": _action_declared,
    "CloseCombatJoined": _close_combat_joined,
    "Moved": _moved,
    "PushedBack": _moved,
    "FollowedUp": _moved,
    "CloseCombatLeft": _close_combat_left,
    "RulingMade": _ruling_made,
}
