"""Damage: dice expressions, fist damage, weapons in and out of HTH, wounds and their thresholds."""

from __future__ import annotations

import re
from typing import Any

from events.common import ConditionChanged, Wounded
from events.dice import Dice, DieRolled, Modifier
from rules.interface import BadCommand
from rules.tft import figures as F
from rules.tft.options import option
from rules.tft.tables import FIST_DAMAGE_BY_ST, FIST_DAMAGE_FLAT, WOUND_THRESHOLDS

# ASCII digits, at most nine a number and a die of at least one side: what int() and the dice can take.
_DAMAGE = re.compile(r"([0-9]{0,9})d([1-9][0-9]{0,8})((?:[+-][0-9]{1,9})*)\Z")


def parse_damage(expr: str) -> tuple[int, int, list[int]]:
    """(count, sides, adds) of "2d6+1", "1d6-4+5"; a BadCommand names a bad expression."""
    m = _DAMAGE.match(str(expr).replace(" ", "").lower())
    if not m:
        raise BadCommand(f"cannot read the damage {expr!r}; write e.g. 1d6+2 or 2d6-1", "damage")
    adds = [int(a) for a in re.findall(r"[+-][0-9]+", m.group(3))]
    return int(m.group(1) or 1), int(m.group(2)), adds


def valid_damage(expr: Any) -> bool:
    return isinstance(expr, str) and bool(_DAMAGE.match(expr.replace(" ", "").lower()))


def fist_damage(state: dict[str, Any], fig: dict[str, Any]) -> str:
    """A figure's bare-hand damage: its own `fist_damage`, else the encounter's option (A2)."""
    own = F.stat(fig, "fist_damage", None)
    if own:
        return str(own)
    if option(state, "fist_damage") == "by_st":
        st = int(F.stat(fig, "st", 0))
        for top, dmg in FIST_DAMAGE_BY_ST:
            if st <= top:
                return dmg
        return FIST_DAMAGE_BY_ST[-1][1]
    return FIST_DAMAGE_FLAT


def hth_weapon_damage(weapon: dict[str, Any]) -> str:
    """Damage of an item in HTH: a dagger-list item's second column, else its normal damage (section 2)."""
    if weapon.get("dagger_list") and weapon.get("hth_damage"):
        return str(weapon["hth_damage"])
    return str(weapon.get("damage", "1d6"))


def roll_damage(
    dice: Dice,
    expr: str,
    purpose: str,
    who: str | None,
    source: str,
    extra: list[Modifier] | None = None,
    multiplier: int = 1,
) -> tuple[DieRolled, int]:
    """Roll damage: faces plus adds (each add a modifier), times a critical multiplier, at least 0."""
    count, sides, adds = parse_damage(expr)
    roll = dice.roll(count, sides, purpose, who)
    mods = [Modifier(a, f"{source} {expr}") for a in adds if a] + list(extra or [])
    base = max(0, roll.sum + sum(m.value for m in mods))
    total = base * multiplier
    if multiplier > 1:
        mods.append(Modifier(total - base, f"critical hit: damage x{multiplier}"))
    notation = expr + "".join(f"{m.value:+d}" for m in (extra or []))
    return roll.event(
        modifiers=mods, total=total, target=None, outcome=f"{total} damage", notation=notation
    ), total


def wound_events(
    state: dict[str, Any], cid: str, damage: int, stops: list[tuple[int, str]], source: str
) -> list[Any]:
    """`Wounded` (damage less what armor and shields stop, each stop named with what it took off: the log
    says it) and `ConditionChanged` for a crossed threshold."""
    fig = state["combatants"][cid]
    left, stopped = damage, []
    for value, by in stops:
        took = min(value, left)
        left -= took
        stopped.append({"by": by, "amount": took})
    amount = left
    out: list[Any] = [Wounded(cid, amount, source, damage=damage, stopped=stopped)]
    before, after = F.remaining_st(fig), F.remaining_st(fig) - amount
    for limit, cond in WOUND_THRESHOLDS:
        if after <= limit:
            if before > limit and cond not in fig.get("conditions", []):
                out.append(ConditionChanged(cid, cond, True))
            break
    return out


def armor_stops(fig: dict[str, Any], shield_counts: bool) -> list[tuple[int, str]]:
    """What stops hits on this figure: armor always, a shield only where it protects (A13)."""
    out = []
    if int(F.stat(fig, "armor_stops", 0)):
        out.append((int(F.stat(fig, "armor_stops", 0)), "armor"))
    if shield_counts and F.shield_stops(fig):
        out.append((F.shield_stops(fig), "shield"))
    return out
