"""The `rogue-trader` ruleset: Rogue Trader (1987) hand-to-hand combat (skeleton)."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_plane


class RogueTraderOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Placeholder options (filled in below as the ruleset grows)."""


class RogueTrader(Ruleset):
    id = "rogue-trader"
    title = "Rogue Trader (1987) hand-to-hand combat"
    version = "1"
    Options = RogueTraderOptions
    geometry = geometry_plane()


ruleset = RogueTrader()
