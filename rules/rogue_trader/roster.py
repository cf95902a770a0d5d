"""Checking and completing a model as it joins (spec §2)."""

from __future__ import annotations

import re
from typing import Any

from rules.interface import BadCommand, RuleError
from rules.rogue_trader.tables import CATACHAN_DEVIL, DEVIL_VARIANTS, SPECIAL_KINDS

PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Int", "Cl", "WP")
REQUIRED = ("M", "WS", "S", "T", "W", "I", "A", "Ld")  # what hand-to-hand uses (spec §1)


def _int(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadCommand(f"{field} must be a whole number (distances in hundredths of an inch)", field)
    return value


def _damage(value: Any, field: str) -> None:
    """Damage is a whole number or dice ("D4", "D6", "2D6"), spec §2."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return
    if isinstance(value, str) and re.fullmatch(r"[0-9]{0,9}[dD][1-9][0-9]{0,8}|[0-9]{1,9}", value.strip()):
        return
    raise BadCommand(f"{field} must be a whole number or dice such as D4, D6, 2D6", field)


def _checked_specials(specials: Any) -> list[dict[str, Any]]:
    """Copies of a creature's special attacks, each of a known kind with a whole-number count."""
    if not isinstance(specials, list):
        raise BadCommand("stats.special_attacks must be a list of {kind, count}", "stats.special_attacks")
    for i, a in enumerate(specials):
        if not isinstance(a, dict) or a.get("kind") not in SPECIAL_KINDS:
            raise BadCommand(
                f"stats.special_attacks[{i}].kind must be one of {', '.join(SPECIAL_KINDS)}",
                f"stats.special_attacks[{i}]",
            )
        if "count" in a:
            _int(a["count"], f"stats.special_attacks[{i}].count")
        if "damage" in a:
            _damage(a["damage"], f"stats.special_attacks[{i}].damage")
    return [dict(a) for a in specials]


def complete(state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
    """The combatant with the ruleset's defaults filled in; BadCommand/RuleError for what cannot be."""
    c = dict(combatant)
    stats = dict(c.get("stats") or {})
    if isinstance(stats.get("profile"), list):
        values = stats.pop("profile")
        if len(values) != len(PROFILE):
            raise BadCommand(
                "stats.profile must hold the 12 values M WS BS S T W I A Ld Int Cl WP", "stats.profile"
            )
        stats.update(dict(zip(PROFILE, values, strict=True)))
    creature = stats.get("creature")
    if creature == "catachan_devil":
        size = stats.get("size", "medium")
        if size not in CATACHAN_DEVIL:
            raise BadCommand("stats.size must be small, medium or large", "stats.size")
        preset = CATACHAN_DEVIL[size]
        for k, v in preset.items():
            if k == "special_attacks":
                if stats.get("special_attacks") is None:
                    if v is None:
                        raise RuleError(
                            "the small Catachan Devil's attacks are missing from the source: "
                            "give stats.special_attacks",
                            {"combatant": c.get("id")},
                        )
                    stats["special_attacks"] = [dict(a) for a in v]
            else:
                stats.setdefault(k, v)
        stats.setdefault("A", sum(a.get("count", 1) for a in _checked_specials(stats["special_attacks"])))
        stats.setdefault("base_radius", 100)
        if size == "large" and "variant" not in stats:
            stats.setdefault("variant_roll", "catachan_devil")
        if "variant" in stats and (size != "large" or stats["variant"] not in DEVIL_VARIANTS):
            raise BadCommand(
                "stats.variant is a large Catachan Devil's: female, male (2 more claws) or fiddler "
                "(a D6 claw and a D4 claw); leave it out to roll it",
                "stats.variant",
            )
    missing = [k for k in REQUIRED if k not in stats]
    if missing:
        raise BadCommand(f"stats lacks {', '.join(missing)} (profile M WS BS S T W I A Ld)", "stats")
    for k in PROFILE:
        stats.setdefault(k, 0)
        _int(stats[k], f"stats.{k}")
    stats.setdefault("unit", c.get("id"))
    if stats["unit"] is not None and not isinstance(stats["unit"], str):
        raise BadCommand("stats.unit must be the unit's name (a string)", "stats.unit")
    stats.setdefault("leader", False)
    stats.setdefault("hands", 2)
    stats.setdefault("equipment_hands", 0)
    stats.setdefault("handedness", "right")
    if stats["handedness"] not in ("right", "left", "ambi"):
        raise BadCommand("stats.handedness must be right, left or ambi", "stats.handedness")
    stats.setdefault("save", None)
    if stats["save"] is not None and not 2 <= _int(stats["save"], "stats.save") <= 6:
        raise BadCommand("stats.save must be 2-6 (the D6 score that saves) or null", "stats.save")
    stats.setdefault("living", True)
    stats.setdefault("base_radius", 50)
    stats.setdefault("move_penalty", 0)
    for k in ("base_radius", "move_penalty", "hands", "equipment_hands"):
        _int(stats[k], f"stats.{k}")
    weapons = []
    if not isinstance(stats.get("weapons") or [], list):
        raise BadCommand("stats.weapons must be a list of {id, ...}", "stats.weapons")
    for i, w in enumerate(stats.get("weapons") or []):
        if not isinstance(w, dict) or not isinstance(w.get("id"), str):
            raise BadCommand(f"stats.weapons[{i}] needs an id", f"stats.weapons[{i}]")
        w = dict(w)
        w.setdefault("name", w["id"])
        w.setdefault("type", "C")
        w.setdefault("hands", 1)
        w.setdefault("held_in", "both" if w["hands"] == 2 else "R")
        w.setdefault("save_mod", 0)
        w.setdefault("damage", 1)
        for k in ("S", "save_mod", "hands", "range"):
            if k in w and w[k] is not None:
                _int(w[k], f"stats.weapons[{i}].{k}")
        if w["hands"] not in (1, 2):
            raise BadCommand(f"stats.weapons[{i}].hands must be 1 or 2", f"stats.weapons[{i}].hands")
        if str(w["held_in"]).upper() not in ("R", "L", "BOTH"):
            raise BadCommand(
                f"stats.weapons[{i}].held_in must be R, L or both", f"stats.weapons[{i}].held_in"
            )
        _damage(w["damage"], f"stats.weapons[{i}].damage")
        weapons.append(w)
    stats["weapons"] = weapons
    stats["special_attacks"] = _checked_specials(stats.get("special_attacks") or [])
    c["stats"] = stats
    if c.get("position") is None:
        raise BadCommand("position [x, y] (hundredths of an inch) is required", "position")
    if c.get("facing") is None:
        c["facing"] = 0
    return c
