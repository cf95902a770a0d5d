"""The skirmish ruleset's own events (spec section 4, "Ruleset events"); common ones come from events.common.

`DefenceAwaited` is named `SkirmishDefenceAwaited` because the gurps spec names an event DefenceAwaited too
and event types are unique across rulesets (NOTES.md).
"""

from __future__ import annotations

import msgspec


class CardDrawn(msgspec.Struct, frozen=True):
    """A card came off the deck: its figures hold the card (spec 4.1)."""

    card: str
    combatant: str | None
    combatants: list[str]
    undrawn_left: int


class ActivationSkipped(msgspec.Struct, frozen=True):
    """A drawn figure does not act: a prisoner (spec 4.1), or unconscious or dead (DECISION)."""

    combatant: str
    why: str


class HandToHandImpossible(msgspec.Struct, frozen=True):
    """The attacker cannot reach the defender (§Flow "If not, no hand-to-hand occurs")."""

    attacker: str
    defender: str
    why: str
    distance: int | None = None
    reach: int | None = None


class SkirmishDefenceAwaited(msgspec.Struct, frozen=True):
    """The defender must choose parry or evade (spec 4.2; the ReactionRequested follows)."""

    attacker: str
    defender: str
    options: list[str]


class BlowAccepted(msgspec.Struct, frozen=True):
    """The defender can neither parry nor evade and accepts the blow (§Flow; spec 6 row 6)."""

    attacker: str
    defender: str
    why: str


class ExchangeResolved(msgspec.Struct, frozen=True):
    """An opposed d100: parry, counterstrike or evade. `attacker` is the side that struck (for a counterstrike,
    the counterstriker); `winner` is a combatant id."""

    kind: str
    attacker: str
    defender: str
    attacker_total: int
    defender_total: int
    winner: str


class DamageEvaluated(msgspec.Struct, frozen=True):
    """The modified damage roll, and the chart's result when a chart is set (spec 4.7)."""

    striker: str
    target: str
    total: int
    result: str | None


class DamageResultAwaited(msgspec.Struct, frozen=True):
    """No damage chart: the GM reads the total on the real chart (spec 6 row 1)."""

    striker: str
    target: str
    total: int


class FallResultAwaited(msgspec.Struct, frozen=True):
    """No fall chart: the GM reads the fall roll on the real "self-inflicted damage" rules (spec 6 row 2)."""

    combatant: str
    total: int


class MoraleAwaited(msgspec.Struct, frozen=True):
    """The GM tests the attacker's morale (spec 6 row 3)."""

    combatant: str


class WoundLevelChanged(msgspec.Struct, frozen=True):
    """A figure's wound level moved (none, light, serious, critical, mortal)."""

    combatant: str
    from_: str = msgspec.field(name="from")
    to: str = "none"
    source: str = ""


class GrappleAborted(msgspec.Struct, frozen=True):
    """The defender's free blow left the grappler unconscious or dead (spec 4.8 step 1, DECISION)."""

    attacker: str
    defender: str
    why: str


class HandToHandEnded(msgspec.Struct, frozen=True):
    """The exchange is over; both stay in contact unless the defender evaded (spec 6 row 15)."""

    attacker: str
    defender: str
    why: str


class PrisonerTaken(msgspec.Struct, frozen=True):
    """A successful grapple: the defender is the attacker's prisoner (§GRAPPLING)."""

    prisoner: str
    captor: str


class PrisonerLiberated(msgspec.Struct, frozen=True):
    """The prisoner is free again (spec 4.9)."""

    prisoner: str
    captor: str
    how: str


SKIRMISH_EVENTS: tuple[type[msgspec.Struct], ...] = (
    CardDrawn,
    ActivationSkipped,
    HandToHandImpossible,
    SkirmishDefenceAwaited,
    BlowAccepted,
    ExchangeResolved,
    DamageEvaluated,
    DamageResultAwaited,
    FallResultAwaited,
    MoraleAwaited,
    WoundLevelChanged,
    GrappleAborted,
    HandToHandEnded,
    PrisonerTaken,
    PrisonerLiberated,
)
