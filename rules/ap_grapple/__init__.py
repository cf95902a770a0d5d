"""The `ap-grapple` ruleset: unskilled wrestling (Make a Grab, Brawl) in an action-point d20 game.

Spec: /work/shared/rules/ap-grapple.md; seed "Grappling (hand-to-hand)". Choices: NOTES.md.
"""

from __future__ import annotations

from rules.ap_grapple.ruleset import ApGrapple

ruleset = ApGrapple()

__all__ = ["ApGrapple", "ruleset"]
