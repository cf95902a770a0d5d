"""What the gurps part of the state remembers (spec section 3), folded from events.

`evolve` is pure and total: it copies what it changes, records what events say and never judges.

    hexes:    {"q,r": {at, occupants: {id: {entry_edge, declared_adjacent}}}}   shared hexes, halves
    grapples: [{grappler, grappled}]
    assists:  [{helper, lead, target, action, owed_turn}]
    fighters: {id: {cc_turns_completed, entered_this_maneuver, attacks_this_maneuver, maneuver,
                    maneuver_turn, movement_left, began_in_hex, readied, turn_over, retreat_turn}}
    current:  the combatant whose own turn is running, or None
    turn:     the turn number (mirrors the common state, so evolve can date facts)
Pins live in the common state (`state["pins"]`).
"""

from __future__ import annotations

from typing import Any

from events.envelope import Event
from rules.hexes import label
from rules.interface import require_present

# Declarations (ActionDeclared.action) that are attacks of the maneuver, for the shield rule.
ATTACK_ACTIONS = frozenset(
    {"close_combat_attack", "step_out_attack", "grapple", "takedown", "pin", "break_free"}
)


def initial_rules_state() -> dict[str, Any]:
    """The gurps part of the state before any event."""
    return {"hexes": {}, "grapples": [], "assists": [], "fighters": {}, "current": None, "turn": 0}


def new_fighter() -> dict[str, Any]:
    """Per-combatant bookkeeping of a figure who just joined."""
    return {
        "cc_turns_completed": 0,
        "entered_this_maneuver": False,
        "attacks_this_maneuver": 0,
        "maneuver": None,
        "maneuver_turn": None,
        "movement_left": 0,
        "began_in_hex": None,
        "readied": [],
        "turn_over": False,
        "retreat_turn": None,
    }


def hex_of(rules: dict[str, Any], cid: str) -> str | None:
    """The key of the shared hex `cid` occupies (or is declared into), if any."""
    for key, h in rules.get("hexes", {}).items():
        if cid in h["occupants"]:
            return key
    return None


def _fighter(rules: dict[str, Any], cid: str) -> dict[str, Any]:
    return rules["fighters"].get(cid) or new_fighter()


def _with_fighter(rules: dict[str, Any], cid: str, **changes: Any) -> dict[str, Any]:
    require_present(rules["fighters"], cid)  # else a void removed its join: the common fold lists it
    return {**rules, "fighters": {**rules["fighters"], cid: {**_fighter(rules, cid), **changes}}}


def _leave_hex(rules: dict[str, Any], cid: str) -> dict[str, Any]:
    """Remove `cid` from his shared hex; a hex with fewer than two occupants is shared no more."""
    key = hex_of(rules, cid)
    if key is None:
        return rules
    h = rules["hexes"][key]
    occupants = {k: v for k, v in h["occupants"].items() if k != cid}
    hexes = dict(rules["hexes"])
    out_of_close_combat = [cid]
    if len(occupants) < 2:
        del hexes[key]
        out_of_close_combat += list(occupants)
    else:
        hexes[key] = {**h, "occupants": occupants}
    rules = {**rules, "hexes": hexes}
    for gone in out_of_close_combat:
        if gone in rules["fighters"]:
            # Spec section 3: cc_turns_completed resets when he leaves close combat.
            rules = _with_fighter(rules, gone, cc_turns_completed=0, entered_this_maneuver=False)
    return rules


def _forget(rules: dict[str, Any], cid: str) -> dict[str, Any]:
    rules = _leave_hex(rules, cid)
    return {
        **rules,
        "grapples": [g for g in rules["grapples"] if cid not in (g["grappler"], g["grappled"])],
        "assists": [a for a in rules["assists"] if cid not in (a["helper"], a["lead"], a["target"])],
        "fighters": {k: v for k, v in rules["fighters"].items() if k != cid},
        "current": None if rules["current"] == cid else rules["current"],
    }


def evolve_rules(rules: dict[str, Any], event: Event) -> dict[str, Any]:
    """The gurps state after one event (any event; unknown ones leave it unchanged)."""
    if not rules:
        rules = initial_rules_state()
    handler = _HANDLERS.get(event.type)
    if handler is None:
        return rules
    return handler(rules, event.data)


def _joined(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    return {**rules, "fighters": {**rules["fighters"], d["id"]: new_fighter()}}


def _removed(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    return _forget(rules, d["combatant"])


def _turn_started(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    return {**rules, "turn": d["turn"], "current": None}


def _maneuver(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    cid = d["combatant"]
    rules = {**rules, "current": cid}
    return _with_fighter(
        rules,
        cid,
        maneuver=d["maneuver"],
        maneuver_turn=d["turn"],
        movement_left=d["movement"],
        attacks_this_maneuver=0,
        entered_this_maneuver=False,
        began_in_hex=hex_of(rules, cid),
        readied=[],
        turn_over=False,
    )


def _movement(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    return _with_fighter(rules, d["combatant"], movement_left=d["left"])


def _half_hex(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    cid = d["combatant"]
    key = label(d["hex"])
    if hex_of(rules, cid) != key:
        rules = _leave_hex(rules, cid)
    h = rules["hexes"].get(key) or {"at": list(d["hex"]), "occupants": {}}
    occupants = {
        **h["occupants"],
        cid: {"entry_edge": d["entry_edge"], "declared_adjacent": bool(d.get("declared_adjacent"))},
    }
    rules = {**rules, "hexes": {**rules["hexes"], key: {**h, "occupants": occupants}}}
    if d.get("moved_in"):
        rules = _with_fighter(rules, cid, entered_this_maneuver=True)
    return rules


def _action_spent(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    cid = d["combatant"]
    f = _fighter(rules, cid)
    in_cc = hex_of(rules, cid) is not None
    rules = _with_fighter(
        rules,
        cid,
        turn_over=True,
        entered_this_maneuver=False,
        cc_turns_completed=f["cc_turns_completed"] + (1 if in_cc else 0),
    )
    assists = [a for a in rules["assists"] if not (a["helper"] == cid and a["owed_turn"] == d["turn"])]
    return {**rules, "assists": assists, "current": None if rules["current"] == cid else rules["current"]}


def _declared(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    cid = d.get("combatant")
    if cid is None or d["action"] not in ATTACK_ACTIONS:
        return rules
    return _with_fighter(rules, cid, attacks_this_maneuver=_fighter(rules, cid)["attacks_this_maneuver"] + 1)


def _grappled(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    g = {"grappler": d["grappler"], "grappled": d["target"]}
    return {**rules, "grapples": [x for x in rules["grapples"] if x != g] + [g]}


def _released(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    g = {"grappler": d["grappler"], "grappled": d["target"]}
    return {**rules, "grapples": [x for x in rules["grapples"] if x != g]}


def _assist(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    if d.get("owed_turn") is None:
        return rules
    a = {k: d[k] for k in ("helper", "lead", "target", "action", "owed_turn")}
    return {**rules, "assists": [*rules["assists"], a]}


def _readied(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    cid = d["combatant"]
    return _with_fighter(rules, cid, readied=[*_fighter(rules, cid)["readied"], d["item"]])


def _retreated(rules: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    rules = _leave_hex(rules, d["combatant"])
    if d["how"] == "retreat":
        rules = _with_fighter(rules, d["combatant"], retreat_turn=rules["turn"])
    return rules


_HANDLERS = {
    "CombatantJoined": _joined,
    "CombatantRemoved": _removed,
    "TurnStarted": _turn_started,
    "ManeuverChosen": _maneuver,
    "GurpsMovementUsed": _movement,
    "HalfHexTaken": _half_hex,
    "CloseCombatLeft": _retreated,
    "ActionSpent": _action_spent,
    "ActionDeclared": _declared,
    "Grappled": _grappled,
    "GrappleReleased": _released,
    "AssistCommitted": _assist,
    "ItemReadied": _readied,
}
