"""The `tft` ruleset: The Fantasy Trip, revised hand-to-hand (spec rules/tft.md)."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_hex


class TftOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Encounter options (spec section 1)."""


class Tft(Ruleset):
    id = "tft"
    title = "The Fantasy Trip: revised hand-to-hand"
    version = "1"
    Options = TftOptions
    geometry = geometry_hex(position_required=True)


ruleset = Tft()
