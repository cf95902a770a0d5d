"""Weapons for close combat (spec section 4.4, §Weapons for Close Combat): reach C melee weapons
(empty hands included) and ranged weapons (at their Bulk); which skill a weapon uses; damage dice."""

from __future__ import annotations

import re
from typing import Any

from events.dice import Dice, DieRolled, Modifier
from rules.gurps.combatant_stats import is_unarmed, skill_level, stats

# ASCII digits, at most nine a number and a die of at least one side: what int() and the dice can take.
DAMAGE_PATTERN = re.compile(r"\s*([0-9]{1,9})d([1-9][0-9]{0,8})?\s*([+-]\s*[0-9]{1,9})?\s*\Z")


def usable_in_close_combat(weapon: dict[str, Any]) -> bool:
    """A ranged weapon, or a melee weapon whose reach includes C."""
    return weapon.get("kind") == "ranged" or "C" in [str(r).upper() for r in weapon.get("reach") or []]


def may_parry_with(weapon: dict[str, Any]) -> bool:
    """§Defense in Close Combat: an empty hand or a reach-C weapon (and it must have a parry)."""
    return (
        weapon.get("kind") == "melee"
        and weapon.get("parry") is not None
        and (is_unarmed(weapon) or "C" in [str(r).upper() for r in weapon.get("reach") or []])
    )


def reach_words(weapon: dict[str, Any]) -> str:
    """ "reach 1" / "reach C, 1" for refusals."""
    reach = weapon.get("reach") or []
    return "reach " + ", ".join(str(r) for r in reach) if reach else "no reach"


def weapon_skill(c: dict[str, Any], weapon: dict[str, Any]) -> tuple[str, int]:
    """(skill name, level): the weapon's `skill`, else the skill named like the weapon, else DX
    (DECISION: the GM adds any default penalty as a modifier)."""
    for skill in (weapon.get("skill"), weapon.get("name")):
        if skill:
            level = skill_level(c, str(skill))
            if level is not None:
                return str(skill), level
    return "DX", int(stats(c)["DX"])


def bulk_modifiers(weapon: dict[str, Any]) -> list[Modifier]:
    """A ranged weapon in close combat: no speed/range penalty, but its Bulk (stored negative)."""
    if weapon.get("kind") != "ranged" or not weapon.get("bulk"):
        return []
    return [Modifier(int(weapon["bulk"]), f"Bulk of the {weapon['name']}")]


def damage_roll(dice: Dice, weapon: dict[str, Any], attacker: str) -> DieRolled | None:
    """The weapon's damage dice ("1d+2", "2d-1", "1d6"), or None when it has none the server reads."""
    m = DAMAGE_PATTERN.match(str(weapon.get("damage") or ""))
    if m is None:
        return None
    count, sides = int(m.group(1)), int(m.group(2) or 6)
    adds = int(m.group(3).replace(" ", "")) if m.group(3) else 0
    roll = dice.roll(count, sides, "damage", attacker)
    mods = [Modifier(adds, "damage adds")] if adds else []
    total = max(0, roll.sum + adds)
    return roll.event(
        modifiers=mods,
        total=total,
        target=None,
        outcome=f"{total} basic damage with the {weapon['name']}; the GM records the injury",
    )
