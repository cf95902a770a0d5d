"""The `skirmish` ruleset: the Jackson Gamers' card-activated skirmish hand to hand (skeleton)."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_plane


class SkirmishOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Placeholder options until the full ruleset lands."""


class Skirmish(Ruleset):
    id = "skirmish"
    title = "Jackson Gamers' skirmish hand to hand"
    version = "1"
    Options = SkirmishOptions
    geometry = geometry_plane(position_required=False)


ruleset = Skirmish()
