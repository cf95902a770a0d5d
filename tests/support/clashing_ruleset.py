"""A test-only ruleset whose event type `HthEntryResolved` is also tft's: installing it beside tft must stop
the server at start, naming both (event type names are one namespace, unprefixed: DESIGN.md)."""

from __future__ import annotations

import msgspec

from rules.freeform import Freeform


class HthEntryResolved(msgspec.Struct, frozen=True):
    combatant: str


class Clashing(Freeform):
    id = "clashing"
    title = "Clashing (test only)"
    events = (HthEntryResolved,)


ruleset = Clashing()
