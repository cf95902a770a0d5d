"""Combatant attributes (spec section 2): checking them at join time and reading them in play."""

from __future__ import annotations

import re
from typing import Any

from rules.ap_grapple.state import DEFAULT_AP_PER_ROUND
from rules.hexes import Hex, as_hex
from rules.interface import BadCommand

# Section 2: exceptional strength such as 18/50 is entered as an integer, by default 18.
EXCEPTIONAL_STRENGTH = re.compile(r"^18/(\d{1,2}|00)$")
EXCEPTIONAL_STRENGTH_VALUE = 18

INTEGER_STATS = ("weight_lb", "strength", "ap_per_round", "thac0", "ac", "hp")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def completed_combatant(combatant: dict[str, Any]) -> dict[str, Any]:
    """The combatant with its stats checked and defaults filled in (raises BadCommand naming the field)."""
    stats = dict(combatant.get("stats") or {})
    strength = stats.get("strength")
    if isinstance(strength, str) and EXCEPTIONAL_STRENGTH.match(strength.strip()):
        stats["strength"] = EXCEPTIONAL_STRENGTH_VALUE
    for name in INTEGER_STATS:
        if name in stats and not _is_int(stats[name]):
            raise BadCommand(
                f"stats.{name} must be a whole number, not {stats[name]!r}", f"combatant.stats.{name}"
            )
    if "weight_lb" in stats and stats["weight_lb"] <= 0:
        raise BadCommand(
            "stats.weight_lb must be a body weight in pounds above 0", "combatant.stats.weight_lb"
        )
    stats.setdefault("ap_per_round", DEFAULT_AP_PER_ROUND)
    if stats["ap_per_round"] < 0:
        raise BadCommand("stats.ap_per_round cannot be negative", "combatant.stats.ap_per_round")
    if combatant.get("position") is not None and as_hex(combatant["position"]) is None:
        raise BadCommand("position must be an axial hex [q, r] of two whole numbers", "combatant.position")
    facing = combatant.get("facing")
    if facing is not None and (not _is_int(facing) or not 0 <= facing <= 5):
        raise BadCommand("facing must be a hex direction 0-5", "combatant.facing")
    return {**combatant, "stats": stats}


def name_of(state: dict[str, Any], cid: str | None) -> str:
    """A combatant's name for the log (its id if it has left the encounter)."""
    if cid is None:
        return "someone"
    c = state["combatants"].get(cid)
    return c.get("name", cid) if c else cid


def stat(combatant: dict[str, Any], name: str) -> int | None:
    """An integer stat, or None when the GM has not entered it."""
    value = (combatant.get("stats") or {}).get(name)
    return value if _is_int(value) else None


def position(combatant: dict[str, Any]) -> Hex | None:
    """The combatant's hex, or None without a position."""
    return as_hex(combatant.get("position"))


def occupants(state: dict[str, Any], h: Hex, *, besides: tuple[str, ...] = ()) -> list[str]:
    """Combatants standing in hex `h`, other than those in `besides`."""
    return [cid for cid, c in state["combatants"].items() if cid not in besides and position(c) == h]


def is_stunned(state: dict[str, Any], cid: str) -> bool:
    """Stunned by a pull (ruleset state) or by a GM ruling (the common conditions)."""
    c = state["combatants"].get(cid) or {}
    return "stunned" in (c.get("conditions") or []) or cid in (state["rules"].get("stunned") or {})


def stun_until(state: dict[str, Any], cid: str) -> int | None:
    """The last round of a combatant's stun, or None if it lasts until the GM lifts it."""
    entry = (state["rules"].get("stunned") or {}).get(cid) or {}
    return entry.get("until_round")
