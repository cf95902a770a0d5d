"""The gurps ruleset's own events (spec section 4, "Ruleset events").

`DefenceAwaited` is also named by the skirmish spec, so ours is `GurpsDefenceAwaited`;
`GurpsMovementUsed` records the movement points a figure has left (the spec is silent on an event
for it, and evolve must not re-judge paths).
"""

from __future__ import annotations

from typing import Any

import msgspec


class ManeuverChosen(msgspec.Struct, frozen=True):
    combatant: str
    maneuver: str
    turn: int
    movement: int


class GurpsMovementUsed(msgspec.Struct, frozen=True):
    combatant: str
    hexes: int
    extra_cost: int
    left: int
    stopped: bool = False


class QuickContestResolved(msgspec.Struct, frozen=True):
    kind: str
    sides: list[dict[str, Any]]
    winner: str | None
    margin_of_victory: int


class HalfHexTaken(msgspec.Struct, frozen=True):
    combatant: str
    hex: list[int]
    entry_edge: int
    moved_in: bool = False
    declared_adjacent: bool = False


class EvadeChallenged(msgspec.Struct, frozen=True):
    mover: str
    foe: str
    at: list[int]
    approach: str


class EvadeAnswered(msgspec.Struct, frozen=True):
    foe: str
    mover: str
    stop: bool


class EvadeStopped(msgspec.Struct, frozen=True):
    mover: str
    foe: str
    at: list[int]


class GurpsDefenceAwaited(msgspec.Struct, frozen=True):
    attacker: str
    target: str
    attack: str
    weapon: str
    options: list[str]


class Grappled(msgspec.Struct, frozen=True):
    grappler: str
    target: str


class GrappleReleased(msgspec.Struct, frozen=True):
    grappler: str
    target: str
    why: str = ""


class AssistCommitted(msgspec.Struct, frozen=True):
    helper: str
    lead: str
    target: str
    action: str
    owed_turn: int | None


GURPS_EVENTS: tuple[type[msgspec.Struct], ...] = (
    ManeuverChosen, GurpsMovementUsed, QuickContestResolved, HalfHexTaken, EvadeChallenged,
    EvadeAnswered, EvadeStopped, GurpsDefenceAwaited, Grappled, GrappleReleased, AssistCommitted,
)
