"""Reading a combatant's GURPS statistics (spec section 2) and completing them when he joins."""

from __future__ import annotations

from typing import Any

from rules.gurps.tables import GRAPPLING_SKILLS, LYING_POSTURES, POSTURES
from rules.interface import BadCommand, RuleError, combatant_or_error

REQUIRED_INTEGER_STATS = ("ST", "DX", "basic_move", "dodge")


def stats(c: dict[str, Any]) -> dict[str, Any]:
    """The stats dict of a combatant state."""
    return c.get("stats") or {}


def name(state: dict[str, Any], cid: str | None) -> str:
    """A combatant's name for sentences (the id when he is gone)."""
    if cid is None:
        return "someone"
    c = state.get("combatants", {}).get(cid)
    return c["name"] if c else cid


def subjects_or_error(state: dict[str, Any], command: Any) -> None:
    """A RuleError naming an unknown combatant, target or helper of a command."""
    for role in ("combatant", "target"):
        cid = getattr(command, role, None)
        if isinstance(cid, str):
            combatant_or_error(state, cid, role)
    for h in getattr(command, "helpers", []) or []:
        combatant_or_error(state, h, "helpers")


def is_lying(c: dict[str, Any]) -> bool:
    """Whether his posture counts as lying down."""
    return c.get("posture") in LYING_POSTURES


def skill_level(c: dict[str, Any], skill: str) -> int | None:
    """His level in a skill (names compare without case), or None."""
    for k, v in (stats(c).get("skills") or {}).items():
        if k.lower() == skill.lower():
            return int(v)
    return None


def best_grappling_skill(c: dict[str, Any]) -> tuple[str, int] | None:
    """His best grappling skill (name, level), or None."""
    found = [(s, lvl) for s in GRAPPLING_SKILLS if (lvl := skill_level(c, s)) is not None]
    return max(found, key=lambda x: x[1]) if found else None


def weapons(c: dict[str, Any]) -> list[dict[str, Any]]:
    """His weapon entries."""
    return list(stats(c).get("weapons") or [])


def weapon_named(c: dict[str, Any], weapon: str) -> dict[str, Any] | None:
    """The weapon entry with this name (without case), or None."""
    return next((w for w in weapons(c) if str(w.get("name", "")).lower() == weapon.lower()), None)


def is_unarmed(weapon: dict[str, Any]) -> bool:
    """An empty-hand entry (spec section 2 DECISION: e.g. {name: "hand", reach: ["C"]})."""
    return bool(weapon.get("unarmed")) or str(weapon.get("name", "")).lower() in ("hand", "fist", "hands")


def item_state(c: dict[str, Any], item_id: str) -> str | None:
    """The state of one of his items ("ready", "carried", "dropped" ...), or None if he has none."""
    for it in c.get("items") or []:
        if str(it.get("id", "")).lower() == item_id.lower():
            return it.get("state")
    return None


def readyable_items(c: dict[str, Any]) -> list[dict[str, Any]]:
    """His items a Ready maneuver could ready: carried, not ready already, not lying on the ground."""
    return [it for it in c.get("items") or [] if item_state(c, it["id"]) not in ("ready", "dropped", None)]


def weapon_is_ready(c: dict[str, Any], weapon: dict[str, Any]) -> bool:
    """An empty hand is ready while he has one; a weapon is ready when its item is."""
    if is_unarmed(weapon):
        return has_empty_hand(c)
    return item_state(c, weapon["name"]) in ("ready", None)


def hands_full(c: dict[str, Any]) -> list[str]:
    """What fills his hands: each ready weapon (not an empty hand) and a worn shield."""
    held = [str(w["name"]) for w in weapons(c) if not is_unarmed(w) and item_state(c, w["name"]) == "ready"]
    shield = worn_shield(c)
    return held + ([str(shield.get("name", "shield"))] if shield else [])


def not_ready_reason(c: dict[str, Any], weapon: dict[str, Any]) -> str:
    """Why a weapon he names cannot be used now (for refusals)."""
    if is_unarmed(weapon):
        return (
            f"{c['name']} has no empty hand: the {' and the '.join(hands_full(c))} fill his "
            f"{int(stats(c).get('hands', 2))} hands"
        )
    state = item_state(c, weapon["name"]) or "not ready"
    # Every caller is an attack or a defence, when no Ready maneuver is open (ready_item would be refused).
    return (
        f"{c['name']}'s {weapon['name']} is {state}, not ready: readying it takes a Ready maneuver "
        f"(gurps.ready_item) on a turn of {c['name']}'s own"
    )


def worn_shield(c: dict[str, Any]) -> dict[str, Any] | None:
    """His shield {name, db} while he still wears it (not dropped)."""
    shield = stats(c).get("shield")
    if not shield or item_state(c, "shield") == "dropped":
        return None
    return shield


def has_empty_hand(c: dict[str, Any]) -> bool:
    """DECISION: each ready weapon (not an empty hand) and a worn shield fill one of his `hands`
    (default 2); a hand is empty while fewer are filled."""
    return len(hands_full(c)) < int(stats(c).get("hands", 2))


def completed_combatant(combatant: dict[str, Any]) -> dict[str, Any]:
    """Check a joining combatant's stats (spec section 2) and fill in defaults and items.

    Weapons and the shield become items (a weapon item is "ready" unless the GM lists it otherwise),
    so `ItemReadied` and `ItemDropped {item: "shield"}` have something to act on."""
    st = dict(combatant.get("stats") or {})
    for key in REQUIRED_INTEGER_STATS:
        v = st.get(key)
        if not isinstance(v, int) or isinstance(v, bool):
            raise BadCommand(f"stats.{key} must be an integer (spec section 2)", f"combatant.stats.{key}")
    st.setdefault("skills", {})
    st.setdefault("weapons", [])
    st.setdefault("shield", None)
    st.setdefault("traits", [])
    if not isinstance(st["skills"], dict) or not all(isinstance(v, int) for v in st["skills"].values()):
        raise BadCommand("stats.skills must map skill names to integer levels", "combatant.stats.skills")
    if not isinstance(st["weapons"], list):
        raise BadCommand("stats.weapons must be a list of {name, kind, ...}", "combatant.stats.weapons")
    if not isinstance(st["traits"], list | None):
        raise BadCommand("stats.traits must be a list of trait names", "combatant.stats.traits")
    for i, w in enumerate(st["weapons"]):
        if (
            not isinstance(w, dict)
            or not isinstance(w.get("name"), str)
            or not w["name"]
            or w.get("kind") not in ("melee", "ranged")
        ):
            raise BadCommand(
                f"stats.weapons[{i}] needs a name and a kind (melee or ranged)",
                f"combatant.stats.weapons[{i}]",
            )
        if not isinstance(w.get("reach", []), list):
            raise BadCommand(
                f'stats.weapons[{i}].reach must be a list such as ["C", "1"]',
                f"combatant.stats.weapons[{i}].reach",
            )
        if isinstance(w.get("bulk"), int) and w["bulk"] > 0:
            raise RuleError(f"{w['name']}: Bulk is stored negative (e.g. -3), not {w['bulk']}")
    shield = st["shield"]
    if shield is not None and (not isinstance(shield, dict) or not isinstance(shield.get("db"), int)):
        raise BadCommand(
            "stats.shield must be {name, db} with an integer db, or null", "combatant.stats.shield"
        )
    posture = combatant.get("posture") or "standing"
    if posture not in POSTURES:
        raise BadCommand(f"posture {posture!r} is not one of {sorted(POSTURES)}", "combatant.posture")
    items = [dict(it) for it in combatant.get("items") or []]
    known = {str(it.get("id", "")).lower() for it in items}
    for w in st["weapons"]:
        if not is_unarmed(w) and w["name"].lower() not in known:
            items.append({"id": w["name"], "name": w["name"], "state": "ready"})
    if shield is not None and "shield" not in known:
        items.append({"id": "shield", "name": shield.get("name", "shield"), "state": "ready"})
    return {**combatant, "stats": st, "items": items, "posture": posture}
