"""The "ordinary roll to hit" the seed relies on (spec section 1 table; section 6 row 1)."""

from __future__ import annotations

from typing import Any

from events.dice import Dice, DieRolled, Modifier
from rules.ap_grapple.combatants import name_of, stat
from rules.ap_grapple.options import option
from rules.interface import BadCommand


def target_problems(state: dict[str, Any], attacker: str, defender: str) -> list[str]:
    """Missing stats that keep the to-hit target from being computed (OPTION to_hit "thac0_minus_ac")."""
    if option(state, "to_hit") != "thac0_minus_ac":
        return []
    problems = []
    if stat(state["combatants"][attacker], "thac0") is None:
        problems.append(f"{name_of(state, attacker)} has no thac0 stat (the GM enters one)")
    if stat(state["combatants"][defender], "ac") is None:
        problems.append(f"{name_of(state, defender)} has no ac stat (the GM enters one)")
    return problems


def check_gm_target_field(state: dict[str, Any], to_hit_target: int | None) -> None:
    """`to_hit_target` is required with OPTION to_hit "gm_target" and not allowed otherwise (400)."""
    mode = option(state, "to_hit")
    if mode == "gm_target" and to_hit_target is None:
        raise BadCommand(
            "to_hit_target is required: this encounter's option to_hit is gm_target", "to_hit_target"
        )
    if mode != "gm_target" and to_hit_target is not None:
        raise BadCommand(
            "to_hit_target is only used when the option to_hit is gm_target; here the target is THAC0 - AC",
            "to_hit_target",
        )


def to_hit_target(state: dict[str, Any], attacker: str, defender: str, to_hit_target: int | None) -> int:
    """The number the d20 total must reach: THAC0 - AC, or the GM's number."""
    if option(state, "to_hit") == "gm_target" and to_hit_target is not None:
        return to_hit_target
    thac0 = stat(state["combatants"][attacker], "thac0")
    ac = stat(state["combatants"][defender], "ac")
    assert thac0 is not None and ac is not None  # target_problems refused the command otherwise
    return thac0 - ac


def roll_to_hit(
    state: dict[str, Any], dice: Dice, purpose: str, attacker: str, target: int, modifiers: list[Modifier]
) -> tuple[DieRolled, bool]:
    """Roll 1d20 + modifiers against `target`; natural 1 and 20 count only if their options are on."""
    roll = dice.roll(1, 20, purpose, combatant=attacker)
    face = roll.faces[0]
    total = face + sum(m.value for m in modifiers)
    hit = total >= target
    outcome = "hit" if hit else "miss"
    if face == 20 and option(state, "natural_20_hits") and not hit:
        hit, outcome = True, "hit (natural 20)"
    elif face == 1 and option(state, "natural_1_misses") and hit:
        hit, outcome = False, "miss (natural 1)"
    return roll.event(modifiers=list(modifiers), total=total, target=target, outcome=outcome), hit
