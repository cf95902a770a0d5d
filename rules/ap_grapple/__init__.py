"""The `ap-grapple` ruleset: unskilled wrestling (Make a Grab, Brawl) in an action-point d20 game."""

from __future__ import annotations

import msgspec

from rules.interface import Ruleset, geometry_hex


class ApGrappleOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Placeholder options while the ruleset is being written."""


class ApGrapple(Ruleset):
    id = "ap-grapple"
    title = "AP grappling (unskilled wrestling)"
    version = "1"
    Options = ApGrappleOptions
    geometry = geometry_hex()


ruleset = ApGrapple()
