"""The tft ruleset's own events (spec 4.15); everything else uses the common vocabulary."""

from __future__ import annotations

import msgspec


class HthEntryResolved(msgspec.Struct, frozen=True):
    """The outcome of an HTH defense roll (4.5): way is enter_hth or dive_for_legs."""

    entrant: str
    defender: str
    way: str
    total: int
    result: str  # enter_no_draw | enter_may_draw | knocked_back | knocked_back_free_hit | thrown


class HthFirstTurn(msgspec.Struct, frozen=True):
    """The combatant got into HTH this turn: attack only, at -4 (§DX-Mods, §Actions-Attack)."""

    combatant: str
    turn: int


class HthConsentGiven(msgspec.Struct, frozen=True):
    """The defender lets this entrant try to enter HTH this turn (condition C4)."""

    defender: str
    entrant: str
    turn: int


class HthPreferencesSet(msgspec.Struct, frozen=True):
    """A figure's standing HTH preferences (4.15)."""

    combatant: str
    use_judo1_defense: bool
    judo2_shift_defense: int
    entry_dagger: str
    judo_throw: str
    hth_wish: str
    take_down_dice: int


class StandingCheckResolved(msgspec.Struct, frozen=True):
    """Whether a standing HTH group stays on its feet this turn (4.14)."""

    group: str
    case: int
    standing: bool


class TakeDownResolved(msgspec.Struct, frozen=True):
    """The Take Down contest of 4.14 (§Take-Down)."""

    group: str
    puller: str
    stander: str
    puller_dice: int
    stander_dice: int
    taken_down: bool


class TftMoveCounted(msgspec.Struct, frozen=True):
    """Rule-checked movement: the hexes of this `tft.move` and the turn's running total (4.15)."""

    combatant: str
    path: list[list[int]]
    hexes_moved: int


TFT_EVENTS: tuple[type, ...] = (
    HthEntryResolved,
    HthFirstTurn,
    HthConsentGiven,
    HthPreferencesSet,
    StandingCheckResolved,
    TakeDownResolved,
    TftMoveCounted,
)
