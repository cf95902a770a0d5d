"""The `gurps` ruleset: GURPS 4th edition close combat (skeleton; filled in step by step)."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_hex


class GurpsOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Placeholder options."""


class Gurps(Ruleset):
    id = "gurps"
    title = "GURPS close combat"
    version = "1"
    Options = GurpsOptions
    geometry = geometry_hex()


ruleset = Gurps()
