"""The `freeform` ruleset: the common commands only, with players allowed to `move`."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_hex


class FreeformOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Freeform has no options of its own."""


class Freeform(Ruleset):
    id = "freeform"
    title = "Freeform (common commands only)"
    version = "1"
    Options = FreeformOptions
    geometry = geometry_hex(position_required=False)
    players_may_move = True  # freeform has no movement rules of its own


ruleset = Freeform()
