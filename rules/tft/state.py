"""`state["rules"]` of the tft ruleset (spec section 3): what the common state does not already keep.

Shape:
    turn, phase,
    figures: {id: {hexes_moved, move_path, movement_ended, hth_first_turn, prefs}},
    consents: [{defender, entrant, turn}],
    groups: {group: {turn_formed, standing}}, groups_formed: n,
    strike: {order, rolled} (the strike into HTH under way: whom each roll is against; for the log)

`evolve_rules` is pure and total: it copies what it changes, never raises, and records only what
events say (every outcome was judged in decide).
"""

from __future__ import annotations

from typing import Any

from rules.interface import require_present

DEFAULT_PREFERENCES: dict[str, Any] = {
    # DECISION defaults of 4.15
    "use_judo1_defense": True,
    "judo2_shift_defense": 1,
    "entry_dagger": "ask",
    "judo_throw": "ask",
    "hth_wish": "fall",
    "take_down_dice": 2,
}


# The rolls of a strike into HTH, one per figure tried (4.13).
STRIKE_ROLL_PURPOSES = ("strike_into_hth", "strike_into_hth_to_miss")


def initial_rules_state() -> dict[str, Any]:
    """The ruleset's part of the state before any event."""
    return {"turn": 0, "phase": None, "figures": {}, "consents": [], "groups": {}, "groups_formed": 0}


def new_figure() -> dict[str, Any]:
    """A figure's tft record when it joins the encounter."""
    return {
        "hexes_moved": 0,
        "move_path": [],
        "movement_ended": False,
        "hth_first_turn": None,
        "prefs": dict(DEFAULT_PREFERENCES),
    }


def figure(rules: dict[str, Any], cid: str) -> dict[str, Any]:
    """A figure's tft record (a fresh one for figures the rules have not seen)."""
    return rules.get("figures", {}).get(cid) or new_figure()


def _with_figure(rules: dict[str, Any], cid: str, **changes: Any) -> dict[str, Any]:
    require_present(rules["figures"], cid)  # else a void removed its join: the common fold lists it
    return {**rules, "figures": {**rules["figures"], cid: {**rules["figures"][cid], **changes}}}


def _new_turn(rules: dict[str, Any], turn: int) -> dict[str, Any]:
    figures = {
        cid: {**f, "hexes_moved": 0, "move_path": [], "movement_ended": False, "hth_first_turn": None}
        for cid, f in rules["figures"].items()
    }
    return {**rules, "turn": turn, "phase": None, "figures": figures, "consents": []}


def evolve_rules(rules: dict[str, Any], event: Any) -> dict[str, Any]:
    """The rules state after one event."""
    return _evolve(rules or initial_rules_state(), event.type, event.data or {})


def _evolve(rules: dict[str, Any], t: str, d: dict[str, Any]) -> dict[str, Any]:
    if t == "TurnStarted":
        return _new_turn(rules, d["turn"])
    if t == "PhaseStarted":
        return {**rules, "phase": d["phase"]}
    if t == "CombatantJoined":
        return {**rules, "figures": {**rules["figures"], d["id"]: new_figure()}}
    if t == "CombatantRemoved":
        return {**rules, "figures": {k: v for k, v in rules["figures"].items() if k != d["combatant"]}}
    if t == "TftMoveCounted":
        f = figure(rules, d["combatant"])
        return _with_figure(
            rules, d["combatant"], hexes_moved=d["hexes_moved"], move_path=[*f["move_path"], *d["path"]]
        )
    if t == "Moved" and rules.get("phase") == "movement":
        f = figure(rules, d["combatant"])
        if d.get("reason") == "charge":
            # A dive or a joining step in the movement phase counts and is the last step (4.3, 4.4).
            return _with_figure(
                rules,
                d["combatant"],
                hexes_moved=f["hexes_moved"] + 1,
                move_path=[*f["move_path"], d["to"]],
                movement_ended=True,
            )
        if d.get("reason") in ("knockback", "thrown"):
            return _with_figure(rules, d["combatant"], movement_ended=True)
        return rules
    if t == "HthFirstTurn":
        return _with_figure(rules, d["combatant"], hth_first_turn=d["turn"])
    if t == "HthConsentGiven":
        return {**rules, "consents": [*rules["consents"], dict(d)]}
    if t == "HthPreferencesSet":
        f = figure(rules, d["combatant"])
        prefs = {**f["prefs"], **{k: v for k, v in d.items() if k in DEFAULT_PREFERENCES}}
        return _with_figure(rules, d["combatant"], prefs=prefs)
    if t == "CloseCombatJoined":
        gid = d["group"]
        if gid in rules["groups"]:
            # A joiner or a re-emitted group (a fall): the group's standing follows the event.
            g = rules["groups"][gid]
            return {**rules, "groups": {**rules["groups"], gid: {**g, "standing": bool(d["standing"])}}}
        groups = {**rules["groups"], gid: {"turn_formed": rules["turn"], "standing": bool(d["standing"])}}
        return {**rules, "groups": groups, "groups_formed": rules["groups_formed"] + 1}
    if t == "ActionDeclared" and d.get("action") == "strike_into_hth":
        # Which figure each roll of the strike is against, for the log (4.13).
        return {**rules, "strike": {"order": list(d["params"].get("roll_order", [])), "rolled": 0}}
    if t == "DieRolled" and d.get("purpose") in STRIKE_ROLL_PURPOSES and rules.get("strike"):
        return {**rules, "strike": {**rules["strike"], "rolled": rules["strike"]["rolled"] + 1}}
    if t == "StandingCheckResolved":
        gid = d["group"]
        g = rules["groups"].get(gid, {"turn_formed": rules["turn"]})
        return {**rules, "groups": {**rules["groups"], gid: {**g, "standing": bool(d["standing"])}}}
    return rules
