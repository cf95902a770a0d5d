"""The gurps ruleset's own events (spec section 4, "Ruleset events").

Renamed from the spec (the guide lists it under the spec's name, from the docstring): `DefenceAwaited`
is also named by the skirmish spec, so ours is `GurpsDefenceAwaited`;
`GurpsMovementUsed` records the movement points a figure has left (the spec is silent on an event
for it, and evolve must not re-judge paths).
"""

from __future__ import annotations

from typing import Any

import msgspec


class ManeuverChosen(msgspec.Struct, frozen=True):
    """A figure began its own turn with a maneuver, and the hexes of movement that gives (spec section 1)."""

    combatant: str
    maneuver: str
    turn: int
    movement: int


class GurpsMovementUsed(msgspec.Struct, frozen=True):
    """Not in the spec (it names no event for it): movement points a move used and how many are left; `stopped` when entering a foe's hex ended the movement."""

    combatant: str
    hexes: int
    extra_cost: int
    left: int
    stopped: bool = False


class QuickContestResolved(msgspec.Struct, frozen=True):
    """A Quick Contest judged from the two success rolls before it: each side's margin, the winner (null on a tie) and the margin of victory."""

    kind: str
    sides: list[dict[str, Any]]
    winner: str | None
    margin_of_victory: int


class HalfHexTaken(msgspec.Struct, frozen=True):
    """A figure holds the half of a close-combat hex on the side it came in through (`entry_edge`); `declared_adjacent` when it was declared in from the next hex (4.8)."""

    combatant: str
    hex: list[int]
    entry_edge: int
    moved_in: bool = False
    declared_adjacent: bool = False


class EvadeChallenged(msgspec.Struct, frozen=True):
    """A mover tries to go through a foe's hex past the foe; `approach` is the foe's arc the mover comes from (front, left, right, back)."""

    mover: str
    foe: str
    at: list[int]
    approach: str


class EvadeAnswered(msgspec.Struct, frozen=True):
    """The foe's answer to an evade: tries to stop the mover (a Quick Contest of DX) or lets the mover pass."""

    foe: str
    mover: str
    stop: bool


class EvadeStopped(msgspec.Struct, frozen=True):
    """The foe won or tied the evade contest: the mover is stopped (in the foe's hex, unless option failed_evade_stop is adjacent)."""

    mover: str
    foe: str
    at: list[int]


class GurpsDefenceAwaited(msgspec.Struct, frozen=True):
    """The spec's `DefenceAwaited` (renamed: the skirmish ruleset has a `DefenceAwaited` of its own): a close-combat attack hit, and the target's defences (`options`) are asked next."""

    attacker: str
    target: str
    attack: str
    weapon: str
    options: list[str]


class Grappled(msgspec.Struct, frozen=True):
    """A grapple took hold: the target has -4 DX and cannot leave the hex until it breaks free."""

    grappler: str
    target: str


class GrappleReleased(msgspec.Struct, frozen=True):
    """A grapple ended (broken free, thrown, the grappler left the hex ...), and why."""

    grappler: str
    target: str
    why: str = ""


class AssistCommitted(msgspec.Struct, frozen=True):
    """A helper joined a takedown or pin; `owed_turn` is the own turn it costs the helper (null with option helper_cost none)."""

    helper: str
    lead: str
    target: str
    action: str
    owed_turn: int | None


GURPS_EVENTS: tuple[type[msgspec.Struct], ...] = (
    ManeuverChosen,
    GurpsMovementUsed,
    QuickContestResolved,
    HalfHexTaken,
    EvadeChallenged,
    EvadeAnswered,
    EvadeStopped,
    GurpsDefenceAwaited,
    Grappled,
    GrappleReleased,
    AssistCommitted,
)
