"""ap-grapple offers: walks to the open hexes the AP left reach (each with its path), a brawl at each
enemy from here or from a hex beside him, grabs, passes and the swing's answers read off the commands'
fields; every variant held to the rules (rules/offer_checks.py)."""

from __future__ import annotations

from typing import Any

from rules.ap_grapple.action_points import ap_left
from rules.ap_grapple.combatants import occupants, position
from rules.ap_grapple.tables import AP_PER_HEX
from rules.hexes import adjacent
from rules.offer_checks import offers_of
from rules.offers import choice, destination_choice, offer, option, reachable

TITLES = {
    "ap-grapple.pass": "Pass (give up the rest of the AP)",
    "ap-grapple.make_a_grab": "Grab {target}",
    "ap-grapple.swing_target": "Swing the grabbed foe",
    "ap-grapple.brawl": "Brawl with {target}",
    "ap-grapple.move": "Walk",
}
REACH = 6  # hexes looked at for a walk or a brawl's run-up; the AP left prune it


def offers(ruleset: Any, state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The offers of `cid` (or of the GM, "gm")."""
    c = state["combatants"].get(cid)
    built: list[dict[str, Any]] = []
    if c is not None and position(c) is not None:
        legal = ruleset.legal_actions(state, cid)
        steps = min(REACH, ap_left(state, cid) // AP_PER_HEX)
        paths = reachable(position(c), steps, lambda h: not occupants(state, h))
        paths = {h: p for h, p in paths.items() if not occupants(state, h)}
        if "ap-grapple.move" in legal and paths:
            built.append(
                offer(
                    "ap-grapple.move",
                    "ap-grapple.move",
                    "Walk",
                    {"combatant": cid},
                    [destination_choice(paths)],
                )
            )
        if "ap-grapple.brawl" in legal:
            built += _brawls(state, cid, c, paths)
    return offers_of(ruleset, state, cid, built, titles=TITLES)


def _brawls(
    state: dict[str, Any], cid: str, c: dict[str, Any], paths: dict[Any, list[list[int]]]
) -> list[dict[str, Any]]:
    out = []
    for t, o in state["combatants"].items():
        at = position(o)
        if t == cid or at is None or o.get("side") == c.get("side"):
            continue
        runs = [option([], "from here", path=[])] if adjacent(position(c), at) else []
        runs += [
            option(p, f"from {p[-1][0]},{p[-1][1]}", path=p) for h, p in paths.items() if adjacent(h, at)
        ]
        if runs:
            out.append(
                offer(
                    f"ap-grapple.brawl:{t}",
                    "ap-grapple.brawl",
                    f"Brawl with {o['name']}",
                    {"combatant": cid, "target": t},
                    [choice("path", "Where to hurl from", "hex", runs)],
                )
            )
    return out
