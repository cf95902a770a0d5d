"""The ruleset's commands (spec section 4 table)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from events.dice import Modifier
from rules.interface import Command


class Pass(Command, tag="ap-grapple.pass"):
    """Give up the rest of this round's AP (4.1)."""

    combatant: str


class MakeAGrab(Command, tag="ap-grapple.make_a_grab"):
    """Grab an adjacent enemy (4.2): 3 AP, a to-hit roll, then a d100 pull off balance."""

    combatant: str
    target: str
    modifiers: list[Modifier] = []
    to_hit_target: int | None = None


class SwingTarget(Command, tag="ap-grapple.swing_target"):
    """Swing the enemy pulled off balance (4.3); the same as `respond` to the `swing_target` reaction."""

    combatant: str
    to: Annotated[
        str,
        msgspec.Meta(
            description=(
                "Where the victim goes, as the swing_target reaction lists it: left or right (the open hexes next to you "
                "both, seen from you looking at the victim), own_hex (yours, for brawling), in_place (the victim's own hex, only with "
                "barrier: true), or dir_0..dir_5 (another open hex next to you, option swing_destinations)."
            )
        ),
    ]
    barrier: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: you claim the victim is slammed into a wall or other solid obstacle at the end of the swing, for 1d3 "
                "damage (terrain is not modelled; the GM may void a wrong claim)."
            )
        ),
    ] = False


class Brawl(Command, tag="ap-grapple.brawl"):
    """Hurl oneself at an enemy using the whole round (4.4): move along `path`, then roll to hit."""

    combatant: str
    target: str
    path: list[list[int]] = []
    modifiers: list[Modifier] = []
    to_hit_target: int | None = None


class Move(Command, tag="ap-grapple.move"):
    """Walk along `path` (adjacent open hexes), 1 AP a hex at a normal pace (§Intro: every action costs AP);
    `facing` 0-5 at the end. The plain `move {to}` is a walk too once a round runs (the hex distance in AP);
    before round 1 it is the GM's placement, free."""

    combatant: str
    path: list[list[int]]
    facing: int | None = None


RULESET_COMMANDS: tuple[type[Command], ...] = (Pass, MakeAGrab, SwingTarget, Brawl, Move)
