"""The ruleset's own events (spec section 4, "Ruleset events defined here"). Integers only."""

from __future__ import annotations

import msgspec


class APSpent(msgspec.Struct, frozen=True):
    """AP paid for an action (or given up by passing); `remaining` is what is left this round."""

    combatant: str
    round: int
    amount: int
    remaining: int
    why: str = ""


class _GripEvent(msgspec.Struct, frozen=True):
    """The fields every grip event shares: who holds whom, and why (optional)."""

    attacker: str
    defender: str
    why: str = ""


class GripTaken(_GripEvent, frozen=True):
    """A grab hit: the attacker has the momentary grip (§Make a Grab)."""


class GripLost(_GripEvent, frozen=True):
    """The grip ended without a swing (failed pull, or the swing could no longer happen)."""


class GripReleased(_GripEvent, frozen=True):
    """The grip ended after the swing."""


class PullChance(msgspec.Struct, frozen=True):
    """The pull-off-balance percentage: percent = floor(100 x attacker_mass / total)."""

    attacker_mass: int
    defender_weight: int
    total: int
    percent: int


class PulledOffBalance(msgspec.Struct, frozen=True):
    """The defender is stunned and the attacker owes a swing to one of `destinations` (name -> hex)."""

    attacker: str
    defender: str
    stunned_until_round: int
    destinations: dict[str, list[int]]


class WeightRatio(msgspec.Struct, frozen=True):
    """The brawl's weight-ratio row and its to-hit modifier; `ratio` is the reduced fraction "a/b"."""

    attacker_lb: int
    defender_lb: int
    ratio: str
    row: str
    modifier: int


class BrawlTakedown(msgspec.Struct, frozen=True):
    """A brawl hit: both go to the ground in the defender's hex."""

    attacker: str
    defender: str


RULESET_EVENTS: tuple[type[msgspec.Struct], ...] = (
    APSpent,
    GripTaken,
    GripLost,
    GripReleased,
    PullChance,
    PulledOffBalance,
    WeightRatio,
    BrawlTakedown,
)
