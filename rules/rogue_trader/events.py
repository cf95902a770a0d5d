"""The ruleset's own events (spec §5, "(RT)" rows). Each name carries the `Rt` prefix so it can never
collide with another ruleset's event (the spec's name follows in each docstring). Distances are
integer hundredths of an inch, like every position."""

from __future__ import annotations

from typing import Any

import msgspec


class RtChargeFailed(msgspec.Struct, frozen=True):
    """Spec `ChargeFailed`: the charger did not reach; `needed_in`/`reach_in` in hundredths of an inch."""

    charger: str
    target: str
    needed_in: int
    reach_in: int
    turn: int


class RtChargeRetargeted(msgspec.Struct, frozen=True):
    """Spec `ChargeRetargeted`: a runner's charger goes for another enemy."""

    charger: str
    from_target: str
    to_target: str


class RtAttacksAllocated(msgspec.Struct, frozen=True):
    """Spec `AttacksAllocated`: every attack of a model this round, `[{attack, weapon, hand, target}]`."""

    combatant: str
    round: int
    allocations: list[dict[str, Any]]


class RtStrikeStepStarted(msgspec.Struct, frozen=True):
    """Spec `StrikeStepStarted`: one initiative step; `waves` strike in sequence (chargers or the
    roll-off winner first), each wave's strikers at once."""

    round: int
    group: str
    initiative: int
    strikers: list[str]
    basis: str
    waves: list[list[str]]


class RtAttackResolved(msgspec.Struct, frozen=True):
    """Spec `AttackResolved`: one attack's outcome (hit chain done)."""

    attacker: str
    target: str
    attack: int
    kind: str
    outcome: str
    wounds: int
    weapon: str | None = None
    counted: int = 0
    # How the needs were reached, for the log (version 2): "WS 4 against WS 3", "S 4 against T 3".
    hit_from: str | None = None
    wound_from: str | None = None


class RtCombatRoundResolved(msgspec.Struct, frozen=True):
    """Spec `CombatRoundResolved`: the tallies of one group's round."""

    round: int
    group: str
    models: list[str]
    pairs: list[dict[str, Any]]
    results: dict[str, str]


class RtPushBackOwed(msgspec.Struct, frozen=True):
    """A losing unit that passed (or took no) rout test must be pushed back (spec 4.10, A34)."""

    unit: str
    round: int
    models: list[str]


class RtFollowUpOwed(msgspec.Struct, frozen=True):
    """A winning unit must follow up or try to hold (spec 4.11, A34); `followers` maps each model that
    was in contact with a pushed-back or fleeing enemy to those enemies."""

    unit: str
    round: int
    followers: dict[str, list[str]]
    may_hold_without_test: bool


class RtHeldGround(msgspec.Struct, frozen=True):
    """Spec `HeldGround`: the unit stays where it is instead of following up."""

    unit: str
    round: int
    tested: bool


class RtCoherencyChecked(msgspec.Struct, frozen=True):
    """Spec `CoherencyChecked`: `strays` = [{model, status}] with status stray_rejoin, stray_in_combat or split."""

    unit: str
    main_body: list[str]
    strays: list[dict[str, str]]
    ruling_owed: bool = False


class RtUnitSplit(msgspec.Struct, frozen=True):
    """Spec `UnitSplit`: stray models become a unit of their own, with no orders."""

    unit: str
    new_unit: str
    models: list[str]
    intentional: bool


class RtUnitRejoined(msgspec.Struct, frozen=True):
    """Spec `UnitRejoined`: a split-off unit is back within 2" of its parent."""

    unit: str
    into: str


class RtSituationSet(msgspec.Struct, frozen=True):
    """Spec `SituationSet`: the GM's ruling on where a model stands."""

    combatant: str
    uphill_over: list[str]
    behind_obstacle: bool
    obstacle_against: list[str]
    prepared_position: bool
    living: bool


class RtCreatureVariantDetermined(msgspec.Struct, frozen=True):
    """Spec `CreatureVariantDetermined`: a large Catachan Devil's sex and claw."""

    combatant: str
    variant: str
    attacks: list[dict[str, Any]]


RT_EVENTS: tuple[type, ...] = (
    RtChargeFailed,
    RtChargeRetargeted,
    RtAttacksAllocated,
    RtStrikeStepStarted,
    RtAttackResolved,
    RtCombatRoundResolved,
    RtPushBackOwed,
    RtFollowUpOwed,
    RtHeldGround,
    RtCoherencyChecked,
    RtUnitSplit,
    RtUnitRejoined,
    RtSituationSet,
    RtCreatureVariantDetermined,
)
