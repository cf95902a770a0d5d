"""What a gurps figure may send now as offers ready to click (rules/offers.py): the maneuvers with what
each allows, movement as reachable hexes with their paths, strikes and grapples at the foes in his
close-combat hex with his ready weapons, the items he may ready, the defence with its retreats. Built
from `legal_actions` and the same `*_problems` checks the deciders refuse with; `kept` then holds each
variant to the rules (issue 29 item 5: a grappled figure is offered no move, takedown and pin only
with a grapple)."""

from __future__ import annotations

from typing import Any

from rules.gurps.attacks import attack_problems, grapple_problems, strike_problems
from rules.gurps.close_combat import in_close_combat_at
from rules.gurps.combatant_stats import readyable_items, weapons, worn_shield
from rules.gurps.hex_sharing import hex_occupants
from rules.gurps.leaving import exits_for, leaving_problems
from rules.gurps.legal import _foes_beside, legal_actions
from rules.gurps.maneuvers import current_maneuver, movement_allowance
from rules.gurps.parry import legal_parries
from rules.gurps.situational_modifiers import fighter, grappled_by_me, grapplers_of, pins_on
from rules.gurps.tables import GRAPPLE_MANEUVERS, MANEUVERS
from rules.hexes import as_hex, label
from rules.offer_checks import offers_of
from rules.offers import (
    GM,
    choice,
    destination_choice,
    offer,
    option,
    pending_for,
    reachable,
    respond_offers,
    words_of_choice,
)

ALLOWS = {"full": "full move", "half": "half move", "step": "a step", "none": "no movement"}


def _maneuver_title(m: str, c: dict[str, Any]) -> str:
    kind = MANEUVERS[m]["movement"]
    move = ALLOWS[kind] if kind == "none" else f"{ALLOWS[kind]} ({movement_allowance(c, m)} hex)"
    attack = "; grapple or strike" if m in GRAPPLE_MANEUVERS else "; strike" if MANEUVERS[m]["attack"] else ""
    ready = "; ready an item" if m == "ready" else ""
    return f"{words_of_choice(m)}: {move}{attack}{ready}"


def _name(state: dict[str, Any], cid: str) -> str:
    return state["combatants"][cid]["name"]


def offers(ruleset: Any, state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The gurps offers of `cid` (or of the GM)."""
    if cid == GM:
        return offers_of(ruleset, state, GM, _answers(state, GM), titles=TITLES)
    c = state["combatants"].get(cid)
    if c is None:
        return []
    legal = legal_actions(state, cid)
    built = _answers(state, cid) if "respond" in legal else []
    maneuver = current_maneuver(state, cid)
    foes = _foes_beside(state, cid)
    for ctype in legal:
        built += _of_type(state, cid, c, ctype, maneuver, foes)
    return offers_of(ruleset, state, cid, built, legal, TITLES)


# The commands this module builds none for, in words (rules/offer_checks.schema_offers).
TITLES = {"gurps.record_injury": "Record an injury"}


def _of_type(
    state: dict[str, Any], cid: str, c: dict[str, Any], ctype: str, maneuver: str | None, foes: list[str]
) -> list[dict[str, Any]]:
    me = {"combatant": cid}
    if ctype == "gurps.choose_maneuver":
        ms = [option(m, _maneuver_title(m, c)) for m in MANEUVERS]
        return [
            offer(ctype, ctype, "Choose a maneuver", me, [choice("maneuver", "Which maneuver", "enum", ms)])
        ]
    if ctype == "gurps.move":
        return _moves(state, cid, c)
    if ctype == "gurps.close_combat_attack" and maneuver:
        return [
            offer(
                f"{ctype}:{t}:{w['name']}",
                ctype,
                f"Strike {_name(state, t)} with the {w['name']}",
                {**me, "target": t, "weapon": w["name"]},
            )
            for t in foes
            for w in weapons(c)
            if not strike_problems(state, cid, t, w["name"], maneuver)
        ]
    if ctype == "gurps.step_out_attack" and maneuver and not leaving_problems(state, cid):
        return [
            offer(
                f"{ctype}:{label(to)}:{t}:{w['name']}",
                ctype,
                f"Step out to {label(to)} and strike {_name(state, t)} with the {w['name']}",
                {**me, "to": list(to), "target": t, "weapon": w["name"]},
            )
            for to in exits_for(state, cid)
            for t in state["combatants"]
            if state["combatants"][t]["side"] != c["side"]
            for w in weapons(c)
        ]
    if ctype == "gurps.grapple" and maneuver:
        return [
            offer(f"{ctype}:{t}", ctype, f"Grapple {_name(state, t)}", {**me, "target": t})
            for t in foes
            if not grapple_problems(state, cid, t, maneuver)
        ]
    if ctype in ("gurps.takedown", "gurps.pin") and maneuver:
        verb = "Take down" if ctype == "gurps.takedown" else "Pin"
        return [
            offer(f"{ctype}:{t}", ctype, f"{verb} {_name(state, t)}", {**me, "target": t})
            for t in grappled_by_me(state, cid)
            if t in foes and not attack_problems(state, cid, t, maneuver, frozenset({"attack"}))
        ]
    if ctype == "gurps.break_free":
        holders = [*grapplers_of(state, cid), *(p["holder"] for p in pins_on(state, cid))]
        return [
            offer(f"{ctype}:{h}", ctype, f"Break free of {_name(state, h)}", {**me, "target": h})
            for h in dict.fromkeys(holders)
        ]
    if ctype == "gurps.ready_item":
        items = readyable_items(c)
        if not items:
            return []
        opts = [option(it["id"], it.get("name") or it["id"]) for it in items]
        return [offer(ctype, ctype, "Ready an item", me, [choice("item", "Which item", "item", opts)])]
    if ctype == "gurps.drop_shield" and worn_shield(c):
        return [offer(ctype, ctype, "Drop the shield", me)]
    if ctype == "gurps.declare_close_combat":
        return [
            offer(f"{ctype}:{t}", ctype, f"Join {_name(state, t)}'s close combat", {**me, "target": t})
            for t in state["combatants"]
            if t != cid and state["combatants"][t]["side"] != c["side"]
        ]
    if ctype == "gurps.evade":
        return _evades(state, cid, c)
    return []


def _moves(state: dict[str, Any], cid: str, c: dict[str, Any]) -> list[dict[str, Any]]:
    """Reachable hexes within the movement left, never through a foe's close combat (that is evading)
    nor into a friend's hex; out of a shared hex only through his side of it (§Leaving)."""
    if grapplers_of(state, cid) or pins_on(state, cid) or c.get("position") is None:
        return []
    left = int(fighter(state, cid)["movement_left"])

    def through(h: Any) -> bool:
        return not hex_occupants(state, h) and not in_close_combat_at(state, h, c["side"])

    paths = reachable(c["position"], left, through)
    exits = exits_for(state, cid)
    if exits:
        paths = {h: p for h, p in paths.items() if as_hex(p[0]) in exits}
    paths = {
        h: p
        for h, p in paths.items()
        if in_close_combat_at(state, h, c["side"]) or not [o for o in hex_occupants(state, h) if o != cid]
    }
    if not paths:
        return []
    return [offer("gurps.move", "gurps.move", "Move", {"combatant": cid}, [destination_choice(paths)])]


def _evades(state: dict[str, Any], cid: str, c: dict[str, Any]) -> list[dict[str, Any]]:
    """Through a foe's hex and out beyond it, two hexes (§Evading)."""
    if c.get("position") is None or int(fighter(state, cid)["movement_left"]) < 2:
        return []
    out = []
    for t, other in state["combatants"].items():
        if t == cid or other["side"] == c["side"] or other.get("position") is None:
            continue
        at = as_hex(other["position"])
        two = reachable(c["position"], 2)
        paths = {
            h: p for h, p in two.items() if len(p) == 2 and as_hex(p[0]) == at and not hex_occupants(state, h)
        }
        if paths:
            out.append(
                offer(
                    f"gurps.evade:{t}",
                    "gurps.evade",
                    f"Evade past {other['name']}",
                    {"combatant": cid, "target": t},
                    [destination_choice(paths, title="Where to, past the foe")],
                )
            )
    return out


def _answers(state: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The answers of the questions waiting for `key`: a defence with its parry weapons and retreats."""
    out = []
    for p in pending_for(state, key):
        if p.get("kind") != "defence" or p.get("combatant") not in state["combatants"]:
            out += respond_offers(state, p)
            continue
        cid = p["combatant"]
        exits = exits_for(state, cid)
        retreat = (
            [
                choice(
                    "params.to", "Where to retreat", "hex", [option(list(h), f"to {label(h)}") for h in exits]
                )
            ]
            if exits
            else []
        )
        for ch in p.get("options") or []:
            base = respond_offers(state, p, [ch])[0]
            weapon_choice = (
                [
                    choice(
                        "params.weapon",
                        "Parry with",
                        "item",
                        [option(w["name"], w["name"]) for w in legal_parries(state, cid)],
                    )
                ]
                if ch == "parry"
                else []
            )
            out.append({**base, "title": words_of_choice(ch), "choices": weapon_choice})
            if retreat and ch in ("dodge", "parry"):
                out.append(
                    {
                        **base,
                        "id": f"{base['id']}:retreat",
                        "title": f"{words_of_choice(ch)} and retreat",
                        "fields": {**base["fields"], "params": {"retreat": True}},
                        "choices": [*weapon_choice, *retreat],
                    }
                )
    return out
