"""The seed's modifier tables as literal data (spec 4.4, 4.6, 4.7). Each row: the reason shown in the log, its
value, and the condition under which it counts, judged from the rolling man's own point of view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.skirmish.figures import DOWN_POSTURES, SERIOUS_OR_WORSE


@dataclass(frozen=True)
class Roller:
    """One man rolling an opposed or damage d100 (X), against his opponent (Y)."""

    street_fighter: bool
    speedy: bool
    posture: str
    opponent_posture: str
    facing_wrong_way: bool
    wound_level: str
    opponent_wound_level: str
    weapon: str
    is_defender: bool


@dataclass(frozen=True)
class Row:
    reason: str
    value: int
    applies: Callable[[Roller], bool]
    in_counterstrike: bool = True


def _down(posture: str) -> bool:
    return posture in DOWN_POSTURES


# §PARRY Modifiers (seed), spec 4.4. §COUNTERSTRIKE: "The modifiers are the same except do not use the
# 'Facing wrong way' modifier" -- the in_counterstrike column. The wound rows count only the current level.
PARRY_MODIFIERS: tuple[Row, ...] = (
    Row("street fighter", +10, lambda x: x.street_fighter),
    Row(
        "opponent is down and you are not", +20, lambda x: _down(x.opponent_posture) and not _down(x.posture)
    ),
    Row(
        "opponent is kneeling and you are standing",
        +10,
        lambda x: x.opponent_posture == "kneeling" and x.posture == "standing",
    ),
    Row("facing the wrong way", -20, lambda x: x.facing_wrong_way, in_counterstrike=False),
    Row("seriously wounded", -20, lambda x: x.wound_level == "serious"),
    Row("critically wounded", -35, lambda x: x.wound_level == "critical"),
    Row("mortally wounded", -50, lambda x: x.wound_level == "mortal"),
)

# §DAMAGE EVALUATION (seed), spec 4.7. "+10 street fighter +10" counts once. Only the striker's own weapon row
# can apply, since `weapon` has one value.
DAMAGE_MODIFIERS: tuple[Row, ...] = (
    Row("street fighter", +10, lambda s: s.street_fighter),
    Row("armed with a sword", +20, lambda s: s.weapon == "sword"),
    Row("armed with a rifle and bayonet", +10, lambda s: s.weapon == "rifle_bayonet"),
    Row("opponent seriously wounded or worse", +20, lambda s: s.opponent_wound_level in SERIOUS_OR_WORSE),
    Row("seriously wounded or worse", -20, lambda s: s.wound_level in SERIOUS_OR_WORSE),
)

# §EVADE (seed), spec 4.6: "The only modifier for this roll is that the defender may add +10 if he is speedy".
EVADE_MODIFIERS: tuple[Row, ...] = (Row("speedy", +10, lambda x: x.is_defender and x.speedy),)


def modifiers_for(
    table: tuple[Row, ...], roller: Roller, counterstrike: bool = False
) -> list[tuple[int, str]]:
    """The (value, reason) pairs of the table's rows that count for this roller."""
    return [
        (row.value, row.reason)
        for row in table
        if (row.in_counterstrike or not counterstrike) and row.applies(roller)
    ]
