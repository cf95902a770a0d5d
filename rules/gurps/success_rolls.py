"""Success rolls and Quick Contests (spec section 1), the one place every command rolls 3d6.

A success roll is 3d6 against an effective skill: the base score plus modifiers, each with its
reason. The margin is effective skill minus the roll. DECISION (BASE, not confirmed by the seed):
a roll of 3-4 always succeeds (margin at least 0) and 17-18 always fails (margin at most -1).
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import Dice, DieRolled, Modifier
from rules.gurps.tables import ALWAYS_FAILS, ALWAYS_SUCCEEDS


class SuccessRoll(msgspec.Struct, frozen=True):
    """One explained 3d6 success roll."""

    combatant: str | None
    purpose: str
    base: int
    base_name: str
    modifiers: list[Modifier]
    effective: int
    faces: list[int]
    roll: int
    margin: int
    success: bool
    event: DieRolled


class ContestResult(msgspec.Struct, frozen=True):
    """A Quick Contest between two success rolls (the acting side first)."""

    first: SuccessRoll
    second: SuccessRoll
    winner: str | None
    margin_of_victory: int


def effective_skill(base: int, modifiers: list[Modifier]) -> int:
    """The base score plus every modifier."""
    return base + sum(m.value for m in modifiers)


def judge(roll: int, effective: int) -> tuple[bool, int]:
    """(success, margin) of a 3d6 total against an effective skill, with the 3-4 / 17-18 rule."""
    margin = effective - roll
    if roll in ALWAYS_SUCCEEDS:
        return True, max(margin, 0)
    if roll in ALWAYS_FAILS:
        return False, min(margin, -1)
    return margin >= 0, margin


def outcome_text(success: bool, margin: int) -> str:
    """The DieRolled outcome: "success by 10" or "failure by 2" (it starts with success/failure)."""
    return f"success by {margin}" if success else f"failure by {-margin}"


def success_roll(
    dice: Dice,
    *,
    combatant: str | None,
    purpose: str,
    base: int,
    base_name: str,
    modifiers: list[Modifier] | None = None,
) -> SuccessRoll:
    """Roll 3d6 against `base` + `modifiers`; the DieRolled carries modifiers, total, target and margin."""
    mods = [m for m in (modifiers or []) if m.value != 0]
    effective = effective_skill(base, mods)
    roll = dice.roll(3, 6, purpose, combatant)
    total = roll.sum
    success, margin = judge(total, effective)
    # The margin is a field of its own (clients read it without parsing); the outcome still says it in words.
    event = roll.event(
        modifiers=mods, total=total, target=effective, outcome=outcome_text(success, margin), margin=margin
    )
    return SuccessRoll(
        combatant, purpose, base, base_name, mods, effective, list(roll.faces), total, margin, success, event
    )


def contest_winner(first: SuccessRoll, second: SuccessRoll) -> tuple[SuccessRoll | None, SuccessRoll | None]:
    """(winner, loser) of a Quick Contest, or (None, None) on a tie.

    Only one succeeds: he wins. Both succeed: the larger margin. Both fail: the smaller failure."""
    if first.success != second.success:
        return (first, second) if first.success else (second, first)
    if first.margin == second.margin:
        return None, None
    return (first, second) if first.margin > second.margin else (second, first)


def quick_contest(first: SuccessRoll, second: SuccessRoll) -> ContestResult:
    """Judge two success rolls as a Quick Contest (the acting side is `first`)."""
    winner, loser = contest_winner(first, second)
    if winner is None or loser is None:
        return ContestResult(first, second, None, 0)
    return ContestResult(first, second, winner.combatant, winner.margin - loser.margin)


def contest_side(roll: SuccessRoll, **extra: Any) -> dict[str, Any]:
    """One entry of QuickContestResolved.sides."""
    return {
        "combatant": roll.combatant,
        "effective": roll.effective,
        "roll": roll.roll,
        "margin": roll.margin,
        "success": roll.success,
        **extra,
    }
