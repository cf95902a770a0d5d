"""Reading models, units and contacts out of the encounter state (spec §2, §3)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.interface import RuleError, combatant_or_error
from rules.plane import base_gap
from rules.rogue_trader.options import option

State = dict[str, Any]

DISADVANTAGED = ("routed", "unconscious", "asleep")  # §Disadvantaged Opponents


def model(state: State, cid: str, role: str = "combatant") -> dict[str, Any]:
    """The combatant, or a RuleError naming the unknown id."""
    return combatant_or_error(state, cid, role)


def stat(c: dict[str, Any], name: str) -> int:
    """A profile value (M, WS, S, ...)."""
    return int(c["stats"].get(name, 0))


def name(state: State, cid: str | None) -> str:
    """A model's name for sentences (its id if it is gone)."""
    if cid is None:
        return "nobody"
    c = state.get("combatants", {}).get(cid)
    return c["name"] if c else cid


def rules_model(state: State, cid: str) -> dict[str, Any]:
    """The ruleset's per-model record (flags, situation, coherency)."""
    return state.get("rules", {}).get("models", {}).get(cid, {})


def turn(state: State) -> int:
    return int(state.get("turn", 0))


def radius(c: dict[str, Any]) -> int:
    """Base radius in hundredths of an inch."""
    return int(c["stats"].get("base_radius", 50))


def effective_move(c: dict[str, Any]) -> int:
    """M less the heavy-weapon penalty, in inches (never below 0)."""
    return max(0, stat(c, "M") - int(c["stats"].get("move_penalty", 0)))


def gap_between(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Edge-to-edge gap of two models, in hundredths."""
    return base_gap(a["position"], radius(a), b["position"], radius(b))


def is_enemy(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["side"] != b["side"]


def is_dead(c: dict[str, Any]) -> bool:
    return "dead" in c.get("conditions", []) or c.get("wounds", 0) >= max(1, stat(c, "W"))


def disadvantaged(c: dict[str, Any]) -> list[str]:
    """The conditions that leave the model unable to fight back (empty if none)."""
    return [x for x in DISADVANTAGED if x in c.get("conditions", [])]


def unit_of(state: State, cid: str) -> str:
    """The model's unit id (a lone model is a unit of one named after it)."""
    return rules_model(state, cid).get("unit") or cid


def unit_named(state: State, name_or_member: str) -> str:
    """The unit a command names: by its id, or by any model in it (a split unit's id is made up by the rules)."""
    r = state.get("rules", {})
    if name_or_member in r.get("units", {}):
        return name_or_member
    return (r.get("models", {}).get(name_or_member) or {}).get("unit") or name_or_member


def unit_members(state: State, uid: str) -> list[str]:
    """The unit's models still in the encounter, in id order."""
    unit = state.get("rules", {}).get("units", {}).get(uid)
    if not unit:
        return []
    return sorted(m for m in unit["members"] if m in state["combatants"])


def unit_or_error(state: State, uid: str) -> list[str]:
    """The unit's members, or a RuleError when there is no such unit."""
    members = unit_members(state, uid)
    if not members:
        raise RuleError(f"there is no unit {uid!r} with models in this encounter", {"unit": uid})
    return members


def unit_leadership(state: State, uid: str) -> int:
    """Ld for the unit's tests: the leader's, else the Ld most members have, ties to the higher (A14)."""
    members = unit_members(state, uid)
    leader = state.get("rules", {}).get("units", {}).get(uid, {}).get("leader")
    if leader in members:
        return stat(state["combatants"][leader], "Ld")
    counts = Counter(stat(state["combatants"][m], "Ld") for m in members)
    if not counts:
        return 0
    return max(counts, key=lambda ld: (counts[ld], ld))


def unit_name(state: State, uid: str) -> str:
    unit = state.get("rules", {}).get("units", {}).get(uid)
    return (unit or {}).get("name") or uid


def contacts_of(state: State, cid: str) -> list[str]:
    """Enemy models in base contact with this one (explicit state, spec §1), in id order."""
    out = set()
    for a, b in state.get("rules", {}).get("contacts", []):
        if a == cid and b in state["combatants"]:
            out.add(b)
        elif b == cid and a in state["combatants"]:
            out.add(a)
    return sorted(out)


def group_of(state: State, cid: str) -> str | None:
    """The id of the combat group (contact component) holding this model."""
    for gid, members in state.get("rules", {}).get("groups", {}).items():
        if cid in members:
            return gid
    return None


def group_named(state: State, name_or_member: str) -> str | None:
    """The combat group a command names: by its id, or by any model in it (ids are the smallest member's)."""
    groups = state.get("rules", {}).get("groups", {})
    return name_or_member if name_or_member in groups else group_of(state, name_or_member)


def common_group(state: State, cid: str) -> str | None:
    """The engine's close-combat group of the model (for CloseCombatLeft)."""
    c = state["combatants"].get(cid)
    return c.get("group") if c else None


def sides_in_order(state: State) -> list[str]:
    """The turn order of sides: the option, else sides in the order their first model joined."""
    order = option(state, "turn_order")
    return list(order) if order else list(state.get("rules", {}).get("sides", []))


def active_side(state: State) -> str | None:
    """The side whose player turn it is (None before the first turn)."""
    order = sides_in_order(state)
    t = turn(state)
    if not order or t < 1:
        return None
    return order[(t - 1) % len(order)]


def phase(state: State) -> str | None:
    return state.get("phase")


def weapons(c: dict[str, Any]) -> list[dict[str, Any]]:
    return list(c["stats"].get("weapons", []))


def weapon_by_id(c: dict[str, Any], wid: str | None) -> dict[str, Any] | None:
    for w in weapons(c):
        if w.get("id") == wid:
            return w
    return None


def has_flag(w: dict[str, Any], flag: str) -> bool:
    """Weapon type flags: "C" close combat, "S" slow, "H" heavy, "F" ... (spec §2)."""
    return flag in str(w.get("type", "")).upper()


def special_attacks(state: State, c: dict[str, Any]) -> list[dict[str, Any]]:
    """A creature's special attacks (a determined variant wins over the joined stats)."""
    override = rules_model(state, c["id"]).get("special_attacks")
    if override is not None:
        return list(override)
    return list(c["stats"].get("special_attacks") or [])


def living(state: State, c: dict[str, Any]) -> bool:
    value = rules_model(state, c["id"]).get("living")
    if value is None:
        value = c["stats"].get("living", True)
    return bool(value)


def require_alive(state: State, cid: str, role: str = "combatant") -> dict[str, Any]:
    """The model, refusing one that is dead."""
    c = model(state, cid, role)
    if is_dead(c):
        raise RuleError(f"{c['name']} is dead", {role: cid})
    return c
