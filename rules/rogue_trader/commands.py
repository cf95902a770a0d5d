"""The ruleset's commands (spec §4): `rogue-trader.<verb>`. Distances are integer hundredths of an inch."""

from __future__ import annotations

from typing import Any

from rules.interface import Command


class Charge(Command, tag="rogue-trader.charge"):
    """4.1: declare a charge; the target answers (4.2) before the charger moves."""

    combatant: str
    target: str
    path: list[list[int]] = []
    terrain_divisor: int = 1


class Retarget(Command, tag="rogue-trader.retarget"):
    """4.3: after the target ran, go for another enemy (or, without `target`, for none)."""

    combatant: str
    target: str | None = None


class AllocateAttacks(Command, tag="rogue-trader.allocate_attacks"):
    """4.4: every attack of the model this round, each with its target; optional free turn first."""

    combatant: str
    round: int
    allocations: list[dict[str, Any]]
    turn_to_face: str | None = None


class ResolveRound(Command, tag="rogue-trader.resolve_round"):
    """4.5: fight one combat group's round. `force_defaults` (GM): missing allocations take the default."""

    group: str
    force_defaults: bool = False


class PushBack(Command, tag="rogue-trader.push_back"):
    """4.10: push back a losing unit; `per_model: {id: {terrain_divisor, stop_after}}`."""

    unit: str
    per_model: dict[str, dict[str, int]] = {}


class FollowUp(Command, tag="rogue-trader.follow_up"):
    """4.11: a winning unit follows up or tries to hold; `targets: {model: enemy}` picks among several."""

    unit: str
    choice: str
    targets: dict[str, str] = {}


class BreakOff(Command, tag="rogue-trader.break_off"):
    """4.12: a unit leaves close combat (rout test, free blows, double-pace retreat)."""

    unit: str
    distance: int | None = None
    terrain_divisor: int = 1


class SetSituation(Command, tag="rogue-trader.set_situation"):
    """4.14 (GM): uphill, obstacle, prepared position, living; omitted fields keep their value."""

    combatant: str
    uphill_over: list[str] | None = None
    behind_obstacle: bool | None = None
    obstacle_against: list[str] | None = None
    prepared_position: bool | None = None
    living: bool | None = None
    frenzied: bool | None = None


RT_COMMANDS: tuple[type[Command], ...] = (
    Charge, Retarget, AllocateAttacks, ResolveRound, PushBack, FollowUp, BreakOff, SetSituation,
)
