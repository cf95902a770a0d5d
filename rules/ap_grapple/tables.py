"""The seed's numbers as data: AP costs (§Make a Grab, §Brawl), the brawl's weight-ratio table (§Brawl;
spec section 4.4) and how a ratio finds its row."""

from __future__ import annotations

from math import gcd
from typing import NamedTuple

GRAB_COST = 3  # §Make a Grab: "This move requires 3 AP to perform."

AP_PER_HEX = 1  # base game: 1 AP per hex at a normal pace in melee (spec section 1 table, 6 row 8)

STRENGTH_LB = 3  # §Make a Grab: "the attacker adding 3 lbs. per point of strength"

BARRIER_DAMAGE_DIE = 3  # §Make a Grab: "against a physical barrier like a wall (causing 1-3 damage)"


class RatioRow(NamedTuple):
    row: str  # the seed's wording
    num: int  # the listed ratio num/den of attacker's weight to the defender's
    den: int
    modifier: int  # to the brawl's roll to hit


# Seed §Brawl, "Attacker's Weight vs. Opponent / Modifier", reproduced exactly (asymmetric as written:
# one quarter is -12 but four times as much only +9). Ascending by ratio.
WEIGHT_RATIO_TABLE: tuple[RatioRow, ...] = (
    RatioRow("one quarter", 1, 4, -12),
    RatioRow("one third", 1, 3, -9),
    RatioRow("one half", 1, 2, -4),
    RatioRow("two thirds", 2, 3, -2),
    RatioRow("three quarters", 3, 4, -1),
    RatioRow("even", 1, 1, 0),
    RatioRow("one third greater", 4, 3, 1),
    RatioRow("one half greater", 3, 2, 2),
    RatioRow("twice as much", 2, 1, 3),
    RatioRow("three times as much", 3, 1, 6),
    RatioRow("four times as much", 4, 1, 9),
)


def _at_least(attacker_lb: int, defender_lb: int, row: RatioRow) -> bool:
    """attacker/defender >= row's ratio, compared exactly in integers."""
    return attacker_lb * row.den >= defender_lb * row.num


def _at_most(attacker_lb: int, defender_lb: int, row: RatioRow) -> bool:
    return attacker_lb * row.den <= defender_lb * row.num


def ratio_row(attacker_lb: int, defender_lb: int, rule: str = "toward_even") -> RatioRow:
    """The table row for these weights.

    "toward_even" (spec 4.4 DECISION): a difference counts only once it fully reaches a listed size,
    so r >= 1 takes the largest listed ratio <= r and r < 1 the smallest listed ratio >= r.
    "lower_row": the largest listed ratio <= r everywhere (the first row below the table).
    Beyond the table the end rows apply; there is no extrapolation.
    """
    at_or_below = [row for row in WEIGHT_RATIO_TABLE if _at_least(attacker_lb, defender_lb, row)]
    if rule == "toward_even" and attacker_lb < defender_lb:
        return next(row for row in WEIGHT_RATIO_TABLE if _at_most(attacker_lb, defender_lb, row))
    return at_or_below[-1] if at_or_below else WEIGHT_RATIO_TABLE[0]


def ratio_text(attacker_lb: int, defender_lb: int) -> str:
    """The weight ratio as a reduced fraction "a/b" (integers only in events)."""
    g = gcd(attacker_lb, defender_lb) or 1
    return f"{attacker_lb // g}/{defender_lb // g}"
