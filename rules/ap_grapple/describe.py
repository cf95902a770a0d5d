"""Log sentences (spec section 7): one per event of this ruleset, with names, dice, modifiers and targets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.ap_grapple.action_points import ap_left
from rules.ap_grapple.brawl import BRAWL_TO_HIT
from rules.ap_grapple.combatants import name_of, stat
from rules.ap_grapple.grab import GRAB_TO_HIT, PULL_OFF_BALANCE
from rules.ap_grapple.options import option
from rules.ap_grapple.swing import SWING_REACTION
from rules.ap_grapple.tables import AP_PER_HEX, GRAB_COST, STRENGTH_LB

State = dict[str, Any]
Data = dict[str, Any]

BARRIER_DAMAGE = "barrier damage"
OUR_ACTION_SPENT = ("all AP spent", "brawl uses the full round", "passed")


def _signed(value: int) -> str:
    return "0" if value == 0 else f"{value:+d}"


def _hex(h: Any) -> str:
    return f"[{h[0]}, {h[1]}]" if isinstance(h, list) and len(h) == 2 else str(h)


def _modifiers(d: Data) -> str:
    mods = d.get("modifiers") or []
    if not mods:
        return " (no modifiers)"
    return "".join(f" {'+' if m['value'] >= 0 else '-'} {abs(m['value'])} ({m['reason']})" for m in mods)


def _declared(s: State) -> Data:
    return s["rules"].get("declared") or {}


def _target_reason(s: State) -> str:
    declared = _declared(s)
    if option(s, "to_hit") == "gm_target" or not declared.get("targets"):
        return "the GM's target"
    a = s["combatants"].get(declared.get("combatant")) or {}
    d = s["combatants"].get(declared["targets"][0]) or {}
    return f"THAC0 {stat(a, 'thac0')} − AC {stat(d, 'ac')}"


def _to_hit(s: State, d: Data) -> str:
    """Who rolls to hit whom, the roll with each modifier, and how the target was reached."""
    declared = _declared(s)
    who = name_of(s, d.get("combatant") or declared.get("combatant"))
    whom = name_of(s, (declared.get("targets") or [None])[0])
    total = f" = {d['total']}" if d.get("modifiers") else ""
    reason = _target_reason(s)
    reached = (
        f"{reason} = {d['target']}" if reason != "the GM's target" else f"{d['target']} (the GM's target)"
    )
    return f"{who} rolls to hit {whom}: d20 [{d['faces'][0]}]{_modifiers(d)}{total} vs {reached}: {d['outcome']}."


def _pull(s: State, d: Data) -> str:
    defender = name_of(s, (_declared(s).get("targets") or [None])[0])
    face, p = d["faces"][0], d["target"]
    if d["outcome"] == "success":
        return f"d100 [{face}] <= {p}: {defender} is pulled off balance."
    return f"d100 [{face}] > {p}: {defender} is not pulled off balance, and the grip is lost."


def _die_rolled(s: State, d: Data) -> str | None:
    purpose = d.get("purpose")
    if purpose in (GRAB_TO_HIT, BRAWL_TO_HIT):
        return _to_hit(s, d)
    if purpose == PULL_OFF_BALANCE:
        return _pull(s, d)
    if purpose == BARRIER_DAMAGE:
        return f"Against the barrier: d3 [{d['faces'][0]}] ({d['source']} roll)."
    return None


def _action_declared(s: State, d: Data) -> str | None:
    a = name_of(s, d.get("combatant"))
    target = name_of(s, (d.get("targets") or [None])[0])
    params = d.get("params") or {}
    action = d.get("action")
    if action == "make_a_grab":
        left = ap_left(s, d["combatant"]) - GRAB_COST
        return f"Round {s['turn']}. {a} tries to grab {target} ({GRAB_COST} AP; {left} AP left)."
    if action == "brawl":
        path = params.get("path") or []
        ap = ap_left(s, d["combatant"])
        charge = f"charges {len(path)} hex{'es' if len(path) != 1 else ''} and " if path else ""
        return f"Round {s['turn']}. {a} {charge}brawls {target} using all {ap} AP."
    if action == "move":
        path = params.get("path") or []
        cost = AP_PER_HEX * len(path)
        hexes = f"{len(path)} hex{'es' if len(path) != 1 else ''}"
        return (
            f"Round {s['turn']}. {a} walks {hexes} to {_hex(path[-1] if path else None)} ({cost} AP; "
            f"{ap_left(s, d['combatant']) - cost} AP left)."
        )
    if action == "swing":
        to, barrier = params.get("to"), params.get("barrier")
        wall = ", against the wall" if barrier else ""
        if to == "own_hex":
            return f"{a} swings {target} into {a}'s own hex."
        if to == "in_place":
            return f"{a} slams {target} against the barrier where {target} stands."
        if to in ("left", "right"):
            return f"{a} swings {target} {to}{wall}."
        return f"{a} swings {target} to {_hex(params.get('hex'))}{wall}."
    return None


def _ap_spent(s: State, d: Data) -> str:
    a = name_of(s, d["combatant"])
    if d.get("why") == "passed":
        return f"{a} passes, giving up {d['amount']} AP."
    return f"{a} spends {d['amount']} AP on the {d.get('why') or 'action'} ({d['remaining']} AP left)."


def _pull_chance(s: State, d: Data) -> str:
    attacker = s["combatants"].get(_declared(s).get("combatant")) or {}
    w, st = stat(attacker, "weight_lb"), stat(attacker, "strength")
    m, total = d["attacker_mass"], d["total"]
    mass = f"{w} + {STRENGTH_LB}x{st} = {m}" if w is not None and st is not None else f"{m}"
    return (
        f"Pull chance: {mass} vs {m} + {d['defender_weight']} = {total}, so {d['percent']}% "
        f"(exactly {m}/{total}, rounded down)."
    )


def _wounded(s: State, d: Data) -> str | None:
    if d.get("source") != "swung against barrier":
        return None
    c = s["combatants"].get(d["combatant"]) or {}
    hp = stat(c, "hp")
    left = f" ({hp - c.get('wounds', 0) - d['amount']} hp left)" if hp is not None else ""
    return f"{name_of(s, d['combatant'])} takes {d['amount']}{left}."


def _moved(s: State, d: Data) -> str | None:
    who, to = name_of(s, d["combatant"]), _hex(d.get("to"))
    return {
        "pulled": f"{who} is pulled to {to}.",
        "charge": f"{who} charges to {to}.",
        "follow_up": f"{who} follows into {to}.",
    }.get(d.get("reason", ""))


def _close_combat(s: State, d: Data) -> str:
    names = " and ".join(name_of(s, c) for c in d["combatants"])
    if d.get("standing"):
        return f"{names} are now in close combat in the hex {_hex(d.get('at'))}."
    return f"{names} are on the ground together in the hex {_hex(d.get('at'))}."


def _destinations(where: dict[str, Any], a: str, d: str) -> str:
    """The swing's destinations in the order a player reads them (the stored event's keys come back sorted):
    left, right, own hex, any other hex, and in place only against a barrier."""
    order = ["left", "right", "own_hex", *sorted(k for k in where if k.startswith("dir_"))]
    words = [
        {"own_hex": f"into {a}'s own hex"}.get(
            k, f"to the hex in direction {k[4:]}" if k.startswith("dir_") else k
        )
        for k in order
        if k in where
    ]
    if "in_place" in where:
        words.append(f"against a barrier where {d} stands")
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def _condition(s: State, d: Data) -> str | None:
    if d.get("condition") != "stunned":
        return None
    return f"{name_of(s, d['combatant'])} is {'stunned' if d.get('on') else 'no longer stunned'}."


SENTENCES: dict[str, Callable[[State, Data], str | None]] = {
    "TurnStarted": lambda s, d: f"Round {d['turn']} begins; every combatant's AP are back to full.",
    "APSpent": _ap_spent,
    "ActionSpent": lambda s, d: (
        f"{name_of(s, d['combatant'])} has no AP left this round."
        if d.get("why") in OUR_ACTION_SPENT
        else None
    ),
    "ActionDeclared": _action_declared,
    "DieRolled": _die_rolled,
    "GripTaken": lambda s, d: f"{name_of(s, d['attacker'])} has a grip on {name_of(s, d['defender'])}.",
    "GripLost": lambda s, d: (
        f"{name_of(s, d['attacker'])} loses the grip on {name_of(s, d['defender'])}"
        f" ({d.get('why') or 'grip lost'})."
    ),
    "GripReleased": lambda s, d: (
        f"{name_of(s, d['attacker'])} releases the grip on "
        f"{name_of(s, d['defender'])} ({d.get('why') or 'released'})."
    ),
    "PullChance": _pull_chance,
    "PulledOffBalance": lambda s, d: (
        f"{name_of(s, d['defender'])} is stunned until the end of round {d['stunned_until_round']}; "
        f"{name_of(s, d['attacker'])} may swing {name_of(s, d['defender'])} "
        f"{_destinations(d['destinations'], name_of(s, d['attacker']), name_of(s, d['defender']))}."
    ),
    "ReactionRequested": lambda s, d: (
        (d.get("question") or None) if d.get("kind") == SWING_REACTION else None
    ),
    "ConditionChanged": _condition,
    "Moved": _moved,
    "CloseCombatJoined": _close_combat,
    "Wounded": _wounded,
    "WeightRatio": lambda s, d: (
        f"Weight {d['attacker_lb']} vs {d['defender_lb']} ({d['ratio']}) counts as "
        f"{d['row']} ({_signed(d['modifier'])})."
    ),
    "BrawlTakedown": lambda s, d: (
        f"{name_of(s, d['attacker'])} takes {name_of(s, d['defender'])} to the ground: both go prone."
    ),
}


def describe_event(state_before: State, event_type: str, data: Data) -> str | None:
    """The sentence for one event, or None for the engine's generic one."""
    sentence = SENTENCES.get(event_type)
    if sentence is None:
        return None
    return sentence(state_before, data)
