"""The gurps commands (spec section 4, the command table). Movement paths list the hexes entered,
in order, not the starting hex; GM/BASE modifiers travel as `modifiers: [{value, reason}]`."""

from __future__ import annotations

from typing import Annotated

import msgspec

from events.dice import Modifier
from rules.gurps.tables import MANEUVERS
from rules.interface import Command

# Spec section 2: a combatant's `weapons` are named entries; an empty hand is one too.
Weapon = Annotated[
    str,
    msgspec.Meta(
        description=(
            'The name of one of the combatant\'s stats.weapons (e.g. "knife", or "hand" for an empty hand).'
        )
    ),
]

Maneuver = Annotated[
    str,
    msgspec.Meta(
        description=(
            f'The maneuver for this turn: {", ".join(MANEUVERS)} ("Move and Attack" and such are read too).'
        )
    ),
]


class ChooseManeuver(Command, tag="gurps.choose_maneuver"):
    """Start the figure's own turn with a maneuver (Move, Attack, Ready ...; spec section 1)."""

    combatant: str
    maneuver: Maneuver


class GurpsMove(Command, tag="gurps.move"):
    """Move or step along `path` (hexes entered, in order); may end in a foe's hex or leave one (4.1, 4.3)."""

    combatant: str
    path: list[list[int]]
    facing: int | None = None
    # Spec section 4.3 / 6 #15: turning, sidestepping and backing cost what the player states.
    extra_cost: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Movement points beyond one a hex that you state for turning, sidestepping or backing on the way, 0 or "
                "more (the GM may void a wrong count)."
            )
        ),
    ] = 0


class Evade(Command, tag="gurps.evade"):
    """Go through the foe's hex past the foe (or out of it forward); `over` with Flight or Super Jump (4.2, 4.3)."""

    combatant: str
    target: str
    path: list[list[int]]
    over: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: go over the foe with Flight or Super Jump, an automatic success (no Quick Contest of DX)."
            )
        ),
    ] = False
    modifiers: list[Modifier] = []


class CloseCombatAttack(Command, tag="gurps.close_combat_attack"):
    """Attack in close combat with a reach-C or ranged weapon (4.4)."""

    combatant: str
    target: str
    weapon: Weapon
    modifiers: list[Modifier] = []


class StepOutAttack(Command, tag="gurps.step_out_attack"):
    """Step out of the close-combat hex to `to` (a hex on the figure's side), then attack `target` next to it with a one-hex-reach weapon (§Leaving a Foe's Hex)."""

    combatant: str
    to: list[int]
    target: str
    weapon: Weapon
    modifiers: list[Modifier] = []


class ReadyItem(Command, tag="gurps.ready_item"):
    """Ready an item; in close combat a DX roll, and with `fast_draw` a Fast-Draw roll before the maneuver (4.6)."""

    combatant: str
    item: str
    fast_draw: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: ready it with the skill Fast-Draw (<item>), sent before choosing the maneuver (a failed roll "
                "leaves a Ready maneuver); false: a Ready maneuver."
            )
        ),
    ] = False


class DropShield(Command, tag="gurps.drop_shield"):
    """Get rid of the shield in close combat: a one-turn Ready and a DX roll (4.7)."""

    combatant: str


class DeclareCloseCombat(Command, tag="gurps.declare_close_combat"):
    """Join a foe's close combat from the next hex (OPTION adjacent_close_combat; 4.8)."""

    combatant: str
    target: str


class Grapple(Command, tag="gurps.grapple"):
    """Grapple a foe in the same hex with an empty hand (4.9)."""

    combatant: str
    target: str
    modifiers: list[Modifier] = []


class Takedown(Command, tag="gurps.takedown"):
    """Quick Contest to throw a grappled, standing foe down; at most 1 helper; `to`: where the foe falls (4.9)."""

    combatant: str
    target: str
    helpers: list[str] = []
    to: list[int] | None = None
    modifiers: list[Modifier] = []


class Pin(Command, tag="gurps.pin"):
    """Quick Contest to pin a grappled foe lying down; at most 2 helpers (4.9)."""

    combatant: str
    target: str
    helpers: list[str] = []
    modifiers: list[Modifier] = []


class BreakFree(Command, tag="gurps.break_free"):
    """Break free of the grapple or pin of `target`, the holder (4.9)."""

    combatant: str
    target: str
    modifiers: list[Modifier] = []


class RecordInjury(Command, tag="gurps.record_injury"):
    """GM only: record the injury of a blow (appends Wounded)."""

    target: Annotated[str, msgspec.Meta(description="The id of the combatant injured.")]
    amount: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Hit points lost, 0 or more, as the GM reckons the injury (the server only rolls the damage dice)."
            )
        ),
    ]
    source: Annotated[
        str, msgspec.Meta(description='What caused it, for the log (e.g. "broadsword swing").')
    ] = ""


GURPS_COMMANDS: tuple[type[Command], ...] = (
    ChooseManeuver,
    GurpsMove,
    Evade,
    CloseCombatAttack,
    StepOutAttack,
    ReadyItem,
    DropShield,
    DeclareCloseCombat,
    Grapple,
    Takedown,
    Pin,
    BreakFree,
    RecordInjury,
)
