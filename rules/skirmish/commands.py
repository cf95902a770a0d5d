"""The skirmish commands (spec section 4 table). ChooseDefence is the common `respond`."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from rules.interface import Command
from rules.skirmish.options import ChartResult

Point = list[int]


class DrawCard(Command, tag="skirmish.draw_card"):
    """Draw the next card (spec 4.1); in a manual encounter `dice: [[k]]` names the k-th undrawn card (the last
    undrawn card is turned up with no roll: send no dice for it)."""

    gm_only: ClassVar[bool] = True


class Strike(Command, tag="skirmish.strike"):
    """StartHandToHand in strike mode (spec 4.2). `path`: the attacker's route to touch, in hundredths.
    `facing_wrong_way`: figures claimed to face the wrong way where facing cannot be computed (spec 6 row 7)."""

    combatant: str
    target: str
    path: list[Point] | None = None
    facing_wrong_way: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Only where facings are not recorded: the ids (the attacker's, the defender's) of those you claim face "
                "the wrong way, the other outside their front 180 degrees (-20 to parry; the GM may void a claim)."
            )
        ),
    ] = []


class Grapple(Command, tag="skirmish.grapple"):
    """StartHandToHand in grapple mode (spec 4.2, 4.8)."""

    combatant: str
    target: str
    path: list[Point] | None = None


class RecordDamageResult(Command, tag="skirmish.record_damage_result"):
    """The GM reads the damage chart (spec 4.7); the same as answering the damage_result reaction."""

    gm_only: ClassVar[bool] = True
    result: ChartResult


class RecordFall(Command, tag="skirmish.record_fall"):
    """The GM reads the fall rules (spec 4.8); the same as answering the fall_result reaction."""

    gm_only: ClassVar[bool] = True
    result: ChartResult


class RecordMorale(Command, tag="skirmish.record_morale", rename={"passed": "pass"}):
    """The GM's morale test (spec 4.8); the same as answering the morale reaction."""

    gm_only: ClassVar[bool] = True
    passed: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: the attacker passes the morale test and takes the opponent prisoner; false: the attacker fails and lands "
                "on their back, with no hold."
            )
        ),
    ]


class CaptorActs(Command, tag="skirmish.captor_acts"):
    """The captor on their card: keep holding, or stand up (and perhaps move, pulling the prisoner) (spec 4.9)."""

    combatant: str
    stand_up: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: the captor stands up (the hold ends, both stand; the prisoner stays a prisoner); false: the captor keeps "
                "holding."
            )
        ),
    ] = False
    path: list[Point] | None = None


class Liberate(Command, tag="skirmish.liberate"):
    """The GM frees a prisoner (spec 4.9)."""

    gm_only: ClassVar[bool] = True
    target: Annotated[str, msgspec.Meta(description="The id of the prisoner freed.")]
    how: Annotated[
        str,
        msgspec.Meta(description="How the prisoner is freed, in words for the log (the seed does not say)."),
    ]


SKIRMISH_COMMANDS: tuple[type[Command], ...] = (
    DrawCard,
    Strike,
    Grapple,
    RecordDamageResult,
    RecordFall,
    RecordMorale,
    CaptorActs,
    Liberate,
)
GM_ONLY_COMMANDS: tuple[type[Command], ...] = tuple(
    c for c in SKIRMISH_COMMANDS if getattr(c, "gm_only", False)
)
