"""Rogue-trader offers: charges at each enemy, the round, push-backs and follow-ups, the answers to a
charge the rules allow now (rules/offer_checks.py; issue 29 item 7: never a stand and fire refused), and
the ordinary move as a region of the table (within M, out of base contact with every enemy)."""

from __future__ import annotations

import math
from typing import Any

from rules.offer_checks import offers_of
from rules.offers import GM, choice, offer, option, plane_move, region
from rules.rogue_trader.aftermath import STOP_KIND, push_line
from rules.rogue_trader.allocation import attack_slots, legal_targets
from rules.rogue_trader.models import (
    effective_move,
    gap_between,
    group_of,
    is_enemy,
    radius,
    turn,
    unit_of,
)
from rules.rogue_trader.movement import move_problems, stray_main_body
from rules.rogue_trader.tables import CONTACT_TOLERANCE

TITLES = {
    "rogue-trader.charge": "Charge {target}",
    "rogue-trader.retarget": "Charge another enemy",
    "rogue-trader.allocate_attacks": "Allocate the attacks",
    "rogue-trader.resolve_round": "Fight the round",
    "rogue-trader.push_back": "Push back",
    "rogue-trader.follow_up": "Follow up",
    "rogue-trader.break_off": "Break off",
    "rogue-trader.set_situation": "Set the situation",
}


def offers(ruleset: Any, state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The offers of `cid` (or of the GM, "gm")."""
    c = state["combatants"].get(cid)
    built = []
    legal = ruleset.legal_actions(state, cid) if c is not None else []
    if c is not None and c.get("position") is not None and "move" in legal:
        built.append(_move(state, c) or _stray_move(state, c))
    if "rogue-trader.allocate_attacks" in legal:
        built += _allocations(state, c)
    if "rogue-trader.follow_up" in legal:
        built += _follow_ups(state, unit_of(state, cid))
    if cid == GM:
        built += [_placed(state, p) for p in state.get("pending", []) if p.get("kind") == STOP_KIND]
    fixed = {"unit": unit_of(state, cid), "group": group_of(state, cid)} if c is not None else {}
    return [
        _with_facing(state, o)
        for o in offers_of(ruleset, state, cid, [b for b in built if b], titles=TITLES, fixed=fixed)
    ]


def _with_facing(state: dict[str, Any], o: dict[str, Any]) -> dict[str, Any]:
    """§Being Charged: "Models which are charged may always turn to face their attacker", with whatever
    they answer (`turn_to_face`, which no answer is refused for): each answer to a charge asks it too."""
    p = next((p for p in state.get("pending", []) if p["id"] == o.get("reaction")), None)
    if o["type"] != "respond" or p is None or p.get("kind") != "charged":
        return o
    charger = state["combatants"].get((p.get("resume") or {}).get("charger"), {})
    facing = choice(
        "params.turn_to_face",
        "Which way to face",
        "enum",
        [
            option(False, "Stay as it faces"),
            option(True, f"Turn to face {charger.get('name', 'the charger')}"),
        ],
    )
    return {**o, "choices": [*o["choices"], facing]}


def _placed(state: dict[str, Any], pending: dict[str, Any]) -> dict[str, Any] | None:
    """The GM's `place` answer to where a push-back stops: any spot within the push-back's length, on no
    other base and out of contact with every enemy (aftermath._placed holds the same limits)."""
    payload = pending.get("resume") or {}
    m = payload.get("model")
    c = state["combatants"].get(m)
    if c is None or c.get("position") is None:
        return None
    length, _ = push_line(state, m, (payload.get("per_model") or {}).get(m, {}))
    others = [
        (o["position"], radius(c) + radius(o) + (CONTACT_TOLERANCE + 1 if is_enemy(c, o) else 0))
        for o in state["combatants"].values()
        if o["id"] != m and o.get("position") is not None
    ]
    pid = pending["id"]
    return offer(
        f"respond:{pid}:place",
        "respond",
        f"Set {c['name']} down elsewhere",
        {"reaction": pid, "choice": "place"},
        [
            choice(
                "params.to",
                f"Where {c['name']} stops",
                "point",
                region=region(c["position"], int(length), others),
            )
        ],
        reaction=pid,
    )


def _stray_move(state: dict[str, Any], c: dict[str, Any]) -> dict[str, Any] | None:
    """§Unit Coherency: a stray "must move towards its unit", which no region of the table says (it may not
    end farther from the main body than it began): the points straight towards the nearest model of the main
    body, an inch apart up to its move or that model's base; `kept` drops any the rules refuse."""
    main = [o for o in stray_main_body(state, c) if o.get("position") is not None]
    if turn(state) < 1 or not main:
        return None
    near = min(main, key=lambda o: gap_between(c, o))
    (x, y), (ox, oy) = c["position"], near["position"]
    length = math.hypot(ox - x, oy - y)
    reach = min(effective_move(c) * 100, gap_between(c, near))
    if length <= 0 or reach < 100:
        return None
    points = [
        option(
            [round(x + (ox - x) * d / length), round(y + (oy - y) * d / length)],
            f'{d // 100}" towards {near["name"]}',
        )
        for d in range(100, int(reach) + 1, 100)
    ]
    return offer(
        "move",
        "move",
        f"Move towards {near['name']} (a stray rejoins its unit)",
        {"combatant": c["id"]},
        [choice("to", "How far", "point", points)],
    )


def _follow_ups(state: dict[str, Any], uid: str | None) -> list[dict[str, Any]]:
    """§Follow-Ups: the winning unit follows its pushed-back foes, or tries to hold (a Ld test, none
    behind an obstacle or in a prepared position). The command's `choice` is free text in its schema,
    so the offer names both; each follower goes after the nearest foe (the advanced form picks)."""
    owed = (state.get("rules", {}).get("owed", {}).get("follow_up") or {}).get(uid)
    if uid is None or not owed:
        return []
    hold = "Hold (no test needed)" if owed.get("may_hold_without_test") else "Try to hold (a Ld test)"
    ctype = "rogue-trader.follow_up"
    return [
        offer(f"{ctype}:follow", ctype, "Follow up", {"unit": uid, "choice": "follow"}),
        offer(f"{ctype}:hold", ctype, hold, {"unit": uid, "choice": "hold"}),
    ]


def _allocations(state: dict[str, Any], c: dict[str, Any]) -> list[dict[str, Any]]:
    """§Close Combat, allocating attacks: every attack of the round at one enemy it may strike (an offer
    per enemy; a split among several is the advanced form). An attack whose arc does not reach that enemy
    (a creature's tail behind it, its bite in front) goes at the first enemy it does reach, and the title
    says so: every attack must be allocated, so an offer leaving one out would be refused."""
    slots = [(s, legal_targets(state, c, s["attack"])) for s in attack_slots(state, c)]
    slots = [(s, reach) for s, reach in slots if reach]
    name = {cid: state["combatants"][cid]["name"] for _, reach in slots for cid in reach}
    out = []
    for t in dict.fromkeys(e for _, reach in slots for e in reach):
        allocations, elsewhere = [], []
        for s, reach in slots:
            at = t if t in reach else reach[0]
            allocations.append(
                {"attack": s["attack"], "weapon": s["weapon"], "hand": s["hand"], "target": at}
            )
            if at != t:
                elsewhere.append(f"{s['weapon'] or s['attack']} at {name[at]}")
        title = f"Every attack at {name[t]}"
        if elsewhere:
            title = f"Every attack it can at {name[t]} ({', '.join(dict.fromkeys(elsewhere))})"
        out.append(
            offer(
                f"rogue-trader.allocate_attacks:{t}",
                "rogue-trader.allocate_attacks",
                title,
                {"combatant": c["id"], "round": turn(state), "allocations": allocations},
            )
        )
    return out


def _move(state: dict[str, Any], c: dict[str, Any]) -> dict[str, Any] | None:
    """§Movement: up to M inches in a straight line; a move may not end in base contact with an enemy
    (that is a charge). None where the region would not say it: during set-up (turn 0, no limit) and
    for a stray, who must move towards its unit (stray_problems)."""
    if turn(state) < 1 or stray_main_body(state, c) or move_problems(state, c):
        return None
    foes = [
        (o["position"], radius(c) + radius(o) + CONTACT_TOLERANCE + 1)
        for o in state["combatants"].values()
        if o["id"] != c["id"] and is_enemy(c, o) and o.get("position") is not None
    ]
    return plane_move(c["id"], region(c["position"], effective_move(c) * 100, foes))
