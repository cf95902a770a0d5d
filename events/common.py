"""The common event vocabulary (DESIGN.md "Common event vocabulary").

Rulesets emit these where the meaning fits, so the ruleset-agnostic projections (state, log, VTT
feeds) work for every ruleset. An event's type name is its class name.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import DieRolled, Modifier

Position = list[int]


class EncounterCreated(msgspec.Struct, frozen=True):
    name: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any]
    geometry: dict[str, Any]
    commitment: str | None
    dice: str
    public: bool = False


class OptionsChanged(msgspec.Struct, frozen=True):
    options: dict[str, Any]


class EncounterClosed(msgspec.Struct, frozen=True):
    reason: str = ""


class DiceSeedRotated(msgspec.Struct, frozen=True):
    revealed_seed: str
    commitment: str | None


class SeatCreated(msgspec.Struct, frozen=True):
    seat: str
    name: str
    combatants: list[str]


class SeatChanged(msgspec.Struct, frozen=True):
    seat: str
    name: str
    combatants: list[str]


class SeatRevoked(msgspec.Struct, frozen=True):
    seat: str


class SeatTokenRotated(msgspec.Struct, frozen=True):
    seat: str


class ReadTokenCreated(msgspec.Struct, frozen=True):
    token_id: str


class ReadTokenRevoked(msgspec.Struct, frozen=True):
    token_id: str


class GmTokenRotated(msgspec.Struct, frozen=True):
    pass


class WebhookCreated(msgspec.Struct, frozen=True):
    """A subscription: `host` only, since a webhook URL's path and query are secrets (a Discord token)."""

    webhook: str
    seat: str | None
    deliver: list[str]
    format: str
    host: str


class WebhookDeleted(msgspec.Struct, frozen=True):
    webhook: str


class WebhookSecretRotated(msgspec.Struct, frozen=True):
    webhook: str


class WebhookDisabled(msgspec.Struct, frozen=True):
    webhook: str
    reason: str


class CombatantJoined(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    controller: str | None
    stats: dict[str, Any]
    position: Any
    facing: int | None
    posture: str
    items: list[dict[str, Any]]
    talents: dict[str, Any]
    reactions: dict[str, str]


class CombatantRemoved(msgspec.Struct, frozen=True):
    combatant: str


class StandingOrdersSet(msgspec.Struct, frozen=True):
    combatant: str
    reactions: dict[str, str]


class TurnStarted(msgspec.Struct, frozen=True):
    turn: int


class PhaseStarted(msgspec.Struct, frozen=True):
    phase: str


class InitiativeSet(msgspec.Struct, frozen=True):
    order: list[str]


class ActionDeclared(msgspec.Struct, frozen=True):
    combatant: str | None
    action: str
    targets: list[str] = []
    params: dict[str, Any] = {}


class ReactionRequested(msgspec.Struct, frozen=True):
    id: str
    kind: str
    combatant: str | None
    asked_of: str
    options: list[str]
    default: str
    allows: list[str] = []
    resume: dict[str, Any] = {}
    question: str = ""


class ReactionAnswered(msgspec.Struct, frozen=True):
    id: str
    choice: str
    params: dict[str, Any]
    by: str


class ReactionCancelled(msgspec.Struct, frozen=True):
    id: str
    reason: str


class Moved(msgspec.Struct, frozen=True):
    combatant: str
    to: Any
    reason: str = "move"
    facing: int | None = None
    from_: Any = msgspec.field(default=None, name="from")


class PostureChanged(msgspec.Struct, frozen=True):
    combatant: str
    posture: str


class FacingChanged(msgspec.Struct, frozen=True):
    combatant: str
    facing: int


class ItemDropped(msgspec.Struct, frozen=True):
    combatant: str
    item: str
    at: Any


class ItemReadied(msgspec.Struct, frozen=True):
    combatant: str
    item: str


class ItemPickedUp(msgspec.Struct, frozen=True):
    combatant: str
    item: str


class CloseCombatJoined(msgspec.Struct, frozen=True):
    group: str
    combatants: list[str]
    at: Any
    standing: bool


class CloseCombatLeft(msgspec.Struct, frozen=True):
    group: str
    combatant: str
    how: str


class PinApplied(msgspec.Struct, frozen=True):
    holder: str
    pinned: str
    turn: int


class PinHeld(msgspec.Struct, frozen=True):
    holder: str
    pinned: str
    turn: int


class PinBroken(msgspec.Struct, frozen=True):
    pinned: str
    holder: str


class PinReleased(msgspec.Struct, frozen=True):
    pinned: str
    holder: str
    why: str = ""


class Wounded(msgspec.Struct, frozen=True):
    combatant: str
    amount: int
    source: str = ""


class ConditionChanged(msgspec.Struct, frozen=True):
    combatant: str
    condition: str
    on: bool


class PushedBack(msgspec.Struct, frozen=True):
    combatant: str
    to: Any
    distance: int
    from_: Any = msgspec.field(default=None, name="from")


class FollowedUp(msgspec.Struct, frozen=True):
    combatant: str
    to: Any
    from_: Any = msgspec.field(default=None, name="from")


class ActionSpent(msgspec.Struct, frozen=True):
    combatant: str
    turn: int
    why: str


class RulingMade(msgspec.Struct, frozen=True):
    text: str
    overrides: dict[str, Any] = {}


class EventVoided(msgspec.Struct, frozen=True):
    seqs: list[int]
    reason: str


class NotePosted(msgspec.Struct, frozen=True):
    text: str


COMMON_EVENTS: tuple[type, ...] = (
    EncounterCreated, OptionsChanged, EncounterClosed, DiceSeedRotated,
    SeatCreated, SeatChanged, SeatRevoked, SeatTokenRotated, ReadTokenCreated, ReadTokenRevoked,
    GmTokenRotated, WebhookCreated, WebhookDeleted, WebhookSecretRotated, WebhookDisabled, CombatantJoined, CombatantRemoved, StandingOrdersSet,
    TurnStarted, PhaseStarted, InitiativeSet, ActionDeclared, DieRolled,
    ReactionRequested, ReactionAnswered, ReactionCancelled, Moved, PostureChanged, FacingChanged,
    ItemDropped, ItemReadied, ItemPickedUp, CloseCombatJoined, CloseCombatLeft,
    PinApplied, PinHeld, PinBroken, PinReleased, Wounded, ConditionChanged, PushedBack, FollowedUp,
    ActionSpent, RulingMade, EventVoided, NotePosted,
)

__all__ = [c.__name__ for c in COMMON_EVENTS] + ["Modifier", "COMMON_EVENTS", "Position"]
