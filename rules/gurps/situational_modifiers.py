"""Modifiers that follow a figure around in close combat: being grappled and wearing a shield
(spec sections 4.2, 4.4, 4.7, 4.9)."""

from __future__ import annotations

from typing import Any

from events.dice import Modifier
from rules.gurps.combatant_stats import worn_shield
from rules.gurps.hex_sharing import in_close_combat, rules_of
from rules.gurps.tables import GRAPPLED_PENALTY


def grapplers_of(state: dict[str, Any], cid: str) -> list[str]:
    """Who grapples `cid`."""
    return [g["grappler"] for g in rules_of(state).get("grapples", []) if g["grappled"] == cid]


def grappled_by_me(state: dict[str, Any], cid: str) -> list[str]:
    """Whom `cid` grapples."""
    return [g["grappled"] for g in rules_of(state).get("grapples", []) if g["grappler"] == cid]


def is_grappled(state: dict[str, Any], cid: str) -> bool:
    """Whether anybody grapples him."""
    return bool(grapplers_of(state, cid))


def pins_on(state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The pins holding `cid` (common state)."""
    return [p for p in state.get("pins", []) if p["pinned"] == cid]


def fighter(state: dict[str, Any], cid: str) -> dict[str, Any]:
    """His gurps bookkeeping (spec section 3), with defaults for a figure never seen."""
    from rules.gurps.state import new_fighter

    return rules_of(state).get("fighters", {}).get(cid) or new_fighter()


def grappled_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """-4 while grappled (DX and DX-based skills)."""
    return [Modifier(GRAPPLED_PENALTY, "grappled")] if is_grappled(state, cid) else []


def shield_dx_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """Section 4.7: -DB on DX rolls in close combat once his first close-combat turn is over."""
    c = state["combatants"][cid]
    shield = worn_shield(c)
    if shield is None or not in_close_combat(state, cid) or fighter(state, cid)["cc_turns_completed"] < 1:
        return []
    return [
        Modifier(
            -int(shield["db"]),
            f"{shield.get('name', 'shield')} (DB {shield['db']}) after the first close-combat turn",
        )
    ]


def shield_attack_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """Section 4.7: -DB on a close-combat attack, except the first attack of the maneuver that
    carried him into the hex."""
    c = state["combatants"][cid]
    shield = worn_shield(c)
    if shield is None or not in_close_combat(state, cid):
        return []
    f = fighter(state, cid)
    if f["entered_this_maneuver"] and f["attacks_this_maneuver"] == 0:
        return []
    return [
        Modifier(
            -int(shield["db"]), f"{shield.get('name', 'shield')} (DB {shield['db']}): not the entering attack"
        )
    ]


def dx_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """Every standing modifier to a plain DX roll in close combat."""
    return grappled_modifiers(state, cid) + shield_dx_modifiers(state, cid)
