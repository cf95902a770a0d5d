"""Combatant attributes (spec section 2) and what a figure's state means for the flow chart."""

from __future__ import annotations

from typing import Any

from rules.interface import BadCommand

WOUND_LEVELS: tuple[str, ...] = ("none", "light", "serious", "critical", "mortal")
SERIOUS_OR_WORSE = frozenset({"serious", "critical", "mortal"})
HTH_WEAPONS: tuple[str, ...] = ("sword", "rifle_bayonet", "other", "none")
# The name of the weapon item a figure joining with only an `hth_weapon` is given (it can be dropped).
WEAPON_NAMES = {
    "sword": "sword",
    "rifle_bayonet": "rifle and bayonet",
    "other": "hand weapon",
    "none": "none",
}
ITEM_KINDS_DROPPED_IN_A_GRAPPLE = frozenset({"regular_weapon", "grenade", "special"})
# DECISION (spec 6 row 8): every lying posture counts as "prone"; kneeling is its own row.
DOWN_POSTURES = frozenset({"prone", "on_back", "on_stomach"})
OUT_OF_ACTION = ("dead", "unconscious")

Combatant = dict[str, Any]
State = dict[str, Any]


def name_of(state: State, cid: str | None) -> str:
    """The figure's name for log sentences (its id if it has gone)."""
    if cid is None:
        return "nobody"
    c = state.get("combatants", {}).get(cid)
    return c.get("name", cid) if c else cid


def card_label(state: State, card: str) -> str:
    """A default card is named by its figure's id: "Sgt Hale's card"; a GM's card keeps its name."""
    if card in state.get("combatants", {}):
        return f"{name_of(state, card)}'s card"
    return f"the card “{card}”"


# The log's words for a figure (issue 18: never a guessed "he"): the `pronoun` stat if given, else "they".
PRONOUNS: dict[str, tuple[str, str, str]] = {
    "he": ("he", "his", "him"),
    "she": ("she", "her", "her"),
    "they": ("they", "their", "them"),
}


def pronoun(state: State, cid: str | None) -> tuple[str, str, str]:
    """(subject, possessive, object) for this figure."""
    c = state.get("combatants", {}).get(cid or "") or {}
    return PRONOUNS.get(stat(c, "pronoun", "they"), PRONOUNS["they"])


def stat(c: Combatant, key: str, default: Any = None) -> Any:
    return (c.get("stats") or {}).get(key, default)


def wound_level(state: State, cid: str) -> str:
    """The current wound level, tracked by WoundLevelChanged (rules state), else the joining stat."""
    levels = state.get("rules", {}).get("wound_levels", {})
    if cid in levels:
        return levels[cid]
    c = state["combatants"].get(cid) or {}
    return stat(c, "wound_level", "none")


def has(c: Combatant, condition: str) -> bool:
    return condition in (c.get("conditions") or [])


def is_down(c: Combatant) -> bool:
    return c.get("posture") in DOWN_POSTURES


def holder_of(state: State, cid: str) -> str | None:
    """Who holds this figure in a grapple, if anyone (common `pins`)."""
    return next((p["holder"] for p in state.get("pins", []) if p["pinned"] == cid), None)


def held_by_him(state: State, cid: str) -> list[str]:
    """The figures this one holds."""
    return [p["pinned"] for p in state.get("pins", []) if p["holder"] == cid]


def captor_of(state: State, cid: str) -> str | None:
    return next(
        (p["captor"] for p in state.get("rules", {}).get("prisoners", []) if p["prisoner"] == cid), None
    )


def prisoners_of(state: State, cid: str) -> list[str]:
    return [p["prisoner"] for p in state.get("rules", {}).get("prisoners", []) if p["captor"] == cid]


def held_weapons(c: Combatant) -> list[dict[str, Any]]:
    """Items a grapple makes him drop that he still holds (§GRAPPLING "any grenade or special weapon, plus his
    regular weapon")."""
    return [
        it
        for it in c.get("items") or []
        if it.get("kind") in ITEM_KINDS_DROPPED_IN_A_GRAPPLE and it.get("state") != "dropped"
    ]


def armed_with(c: Combatant) -> str:
    """The hand-to-hand weapon that counts now: his `hth_weapon` while he still holds a regular weapon
    (DECISION: a figure who dropped it in a grapple fights unarmed)."""
    weapon = stat(c, "hth_weapon", "none")
    regular = [it for it in c.get("items") or [] if it.get("kind") == "regular_weapon"]
    if regular and all(it.get("state") == "dropped" for it in regular):
        return "none"
    return weapon


def _check_bool(stats: dict[str, Any], key: str) -> None:
    if not isinstance(stats.get(key, False), bool):
        raise BadCommand(f"stats.{key} must be true or false", f"combatant.stats.{key}")


def validate(combatant: Combatant) -> Combatant:
    """Check a joining figure's stats (spec section 2) and complete them with defaults.

    A figure with an `hth_weapon` other than none and no `regular_weapon` item gets one, so a grapple has a
    weapon to drop (ItemDropped names an item)."""
    stats = dict(combatant.get("stats") or {})
    for key in ("street_fighter", "speedy"):
        _check_bool(stats, key)
        stats.setdefault(key, False)
    stats.setdefault("wound_level", "none")
    if stats["wound_level"] not in WOUND_LEVELS:
        raise BadCommand(
            f"stats.wound_level must be one of {', '.join(WOUND_LEVELS)}", "combatant.stats.wound_level"
        )
    stats.setdefault("hth_weapon", "none")
    if stats["hth_weapon"] not in HTH_WEAPONS:
        raise BadCommand(
            f"stats.hth_weapon must be one of {', '.join(HTH_WEAPONS)}", "combatant.stats.hth_weapon"
        )
    morale = stats.get("morale")
    if morale is not None and (
        not isinstance(morale, int) or isinstance(morale, bool) or not 1 <= morale <= 100
    ):
        raise BadCommand(
            "stats.morale must be a whole number from 1 to 100, or absent (the GM tests)",
            "combatant.stats.morale",
        )
    if stats.get("pronoun", "they") not in PRONOUNS:
        raise BadCommand(
            "stats.pronoun must be he, she or they (the log's word for the figure)", "combatant.stats.pronoun"
        )
    move = stats.get("move_in")
    if move is not None and (not isinstance(move, int) or isinstance(move, bool) or move < 0):
        raise BadCommand("stats.move_in must be a whole number of inches per move", "combatant.stats.move_in")
    items = [dict(it) for it in combatant.get("items") or []]
    for i, it in enumerate(items):
        kind = it.get("kind")
        if kind is not None and not isinstance(kind, str):
            raise BadCommand(
                f"items[{i}].kind must be text such as regular_weapon, grenade or special",
                f"combatant.items[{i}].kind",
            )
    if stats["hth_weapon"] != "none" and not any(it.get("kind") == "regular_weapon" for it in items):
        items.append(
            {
                "id": stats["hth_weapon"],
                "kind": "regular_weapon",
                "name": WEAPON_NAMES[stats["hth_weapon"]],
            }
        )
    return {**combatant, "stats": stats, "items": items}


def move_reach(c: Combatant) -> int | None:
    """One move in hundredths of an inch (`move_in` is whole inches), or None when unknown."""
    move = stat(c, "move_in")
    return None if move is None else move * 100
