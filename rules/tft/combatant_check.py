"""Checking and completing a combatant at `add_combatant` (spec section 2)."""

from __future__ import annotations

from typing import Any

from rules.interface import BadCommand, RuleError
from rules.tft.damage import valid_damage
from rules.tft.tables import PREREQUISITES, STAT_DEFAULTS

ITEM_KINDS = ("weapon", "shield", "other")
ITEM_STATES = ("ready", "carried", "worn", "dropped")
DEFAULT_ITEM_STATE = {"weapon": "carried", "shield": "worn", "other": "carried"}


def _talent(c: dict[str, Any], name: str) -> int:
    v = c["stats"].get(name, c.get("talents", {}).get(name, 0))
    return int(v or 0)


def validate(c: dict[str, Any]) -> dict[str, Any]:
    """Raise for what cannot work, fill defaults; stats a check needs but lacks are not checked."""
    stats = dict(c.get("stats") or {})
    for key in ("st", "dx", "iq", "adj_dx", "ma", "sprint_bonus", "armor_stops", "uc", "judo", "dive_block"):
        if key in stats and (not isinstance(stats[key], int) or isinstance(stats[key], bool)):
            raise BadCommand(f"stats.{key} must be an integer", f"combatant.stats.{key}")
    if "st" not in stats:
        raise BadCommand("a tft combatant needs stats.st (strength and hits)", "combatant.stats.st")
    if "adj_dx" not in stats and "dx" not in stats:
        raise BadCommand("a tft combatant needs stats.adj_dx or stats.dx", "combatant.stats.adj_dx")
    for level_key in ("judo", "dive_block"):
        try:
            level = int(stats.get(level_key, c.get("talents", {}).get(level_key, 0)) or 0)
        except (TypeError, ValueError):  # a talent level written as something other than a number
            level = -1
        if not 0 <= level <= 2:
            raise BadCommand(f"stats.{level_key} is 0, 1 or 2", f"combatant.stats.{level_key}")
    full = {**c, "stats": {**STAT_DEFAULTS, **stats}}
    if not stats.get("gm_override_prerequisites"):
        missing = []
        for (talent, level), needs in PREREQUISITES.items():
            if _talent(full, talent) >= level:
                for stat, minimum, words in needs:
                    have = stats.get(stat)
                    if have is not None and have < minimum:
                        missing.append(
                            f"{talent.replace('_', ' ').title()} {level} needs {words} ({stat} is {have})"
                        )
        if missing:
            raise RuleError(
                f"{c['name']} cannot have these talents: "
                + "; ".join(missing)
                + " (set stats.gm_override_prerequisites to allow it)"
            )
    if stats.get("fist_damage") is not None and not valid_damage(stats["fist_damage"]):
        raise BadCommand("stats.fist_damage must read like 1d6-2", "combatant.stats.fist_damage")
    if not isinstance(full["stats"]["natural_attacks"] or [], list):
        raise BadCommand(
            "stats.natural_attacks is a list of {name, damage like 1d6+2, hth: bool}",
            "combatant.stats.natural_attacks",
        )
    for i, nat in enumerate(full["stats"]["natural_attacks"] or []):
        if not isinstance(nat, dict) or not nat.get("name") or not valid_damage(nat.get("damage")):
            raise BadCommand(
                "each natural attack is {name, damage like 1d6+2, hth: bool}",
                f"combatant.stats.natural_attacks[{i}]",
            )
    items = []
    for i, item in enumerate(c.get("items") or []):
        item = dict(item)
        kind = item.setdefault("kind", "other")
        if kind not in ITEM_KINDS:
            raise BadCommand(f"items[{i}].kind is weapon, shield or other", f"combatant.items[{i}].kind")
        item.setdefault("name", item["id"])
        item.setdefault("state", DEFAULT_ITEM_STATE[kind])
        if item["state"] not in ITEM_STATES:
            raise BadCommand(
                f"items[{i}].state is one of {', '.join(ITEM_STATES)}", f"combatant.items[{i}].state"
            )
        if item.get("dagger_list") and not valid_damage(item.get("hth_damage")):
            # A2: the "second damage column" is not in the seed, so the item must carry it.
            raise BadCommand(
                f"{item['name']} is on the dagger list and needs hth_damage (its HTH damage column)",
                f"combatant.items[{i}].hth_damage",
            )
        for key in ("damage", "hth_damage"):
            if item.get(key) is not None and not valid_damage(item[key]):
                raise BadCommand(f"items[{i}].{key} must read like 2d6-1", f"combatant.items[{i}].{key}")
        items.append(item)
    full["items"] = items
    return full
