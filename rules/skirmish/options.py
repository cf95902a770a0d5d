"""The skirmish options (spec sections 1, 4.7, 4.8 and 6): GM data and the DECISIONs a table may change."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec

from rules.options import defaults_of, reader

FALL_ROLL = re.compile(r"^([1-9][0-9]?)?d([1-9][0-9]{0,3})$")

# The results a damage or fall chart may give (spec 4.7).
ChartResult = Literal["no_effect", "light", "serious", "critical", "mortal", "unconscious", "dead"]


class ChartRow(msgspec.Struct, forbid_unknown_fields=True):
    """One row of a GM-supplied chart: modified totals from `min` to `max` (either open) give `result`."""

    result: Annotated[ChartResult, msgspec.Meta(description="The result these totals give.")]
    min: Annotated[
        int | None, msgspec.Meta(description="The lowest modified total of the row; null: no lower bound.")
    ] = None
    max: Annotated[
        int | None, msgspec.Meta(description="The highest modified total of the row; null: no upper bound.")
    ] = None


class DeckCard(msgspec.Struct, forbid_unknown_fields=True):
    """One card of a GM-supplied deck; a team card activates every figure listed."""

    card: Annotated[str, msgspec.Meta(description="The card's name, as the log writes it.")]
    combatants: Annotated[
        list[str], msgspec.Meta(description="The ids of the combatants the card activates.")
    ]


class SkirmishOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Spec options with their defaults; `contact_distance` is a Tussle DECISION (NOTES.md)."""

    # Spec 1: one card per combatant in join order unless the GM lists the cards.
    deck: Annotated[
        list[DeckCard] | None,
        msgspec.Meta(
            description="The cards of the activation deck (default: one card per combatant, in join order)."
        ),
    ] = None
    # Spec 6 row 1: the seed's DAMAGE CHART is missing; None means the GM records each result.
    damage_chart: Annotated[
        list[ChartRow] | None,
        msgspec.Meta(
            description="The damage chart as rows {min, max, result} (the seed's is missing; default: the GM records each result)."
        ),
    ] = None
    # Spec 6 row 2: the "self-inflicted damage" of a one-storey fall is missing.
    fall_roll: Annotated[
        str, msgspec.Meta(description="The dice of a fall's self-inflicted damage roll, e.g. 1d100.")
    ] = "1d100"
    fall_chart: Annotated[
        list[ChartRow] | None,
        msgspec.Meta(
            description="The fall chart as rows {min, max, result} (default: the GM records each result)."
        ),
    ] = None
    # Spec 6 row 3: the morale rules are missing.
    morale_mode: Annotated[
        Literal["d100_under_stat", "gm"],
        msgspec.Meta(
            description="Morale: d100 under the figure's stat (d100_under_stat), or the GM records it (gm)."
        ),
    ] = "d100_under_stat"
    # Spec 4.7: how a wounding result changes the wound level.
    wound_update: Annotated[
        Literal["worse_of", "step_up"],
        msgspec.Meta(
            description="How a wounding result changes the wound level: the worse of the two, or one step up."
        ),
    ] = "worse_of"
    # Spec 6 row 12: which case "he also drops weapons" covers.
    attacker_drops_weapons: Annotated[
        Literal["always", "on_morale_fail"],
        msgspec.Meta(
            description="When a grappling attacker drops their weapons: always, or only on a failed morale test."
        ),
    ] = "always"
    # Spec 6 row 5: being held by a captor forbids a parry, like the GM-set `pinned` condition.
    hold_counts_as_pinned: Annotated[
        bool, msgspec.Meta(description="A figure held by a captor may not parry, as if pinned.")
    ] = True
    # DECISION (NOTES.md): figures are "in touch" when their centres are at most this far apart
    # (hundredths of an inch; 100 = two 25 mm bases touching).
    contact_distance: Annotated[
        int,
        msgspec.Meta(
            description="Figures are in touch when their centres are at most this far apart (hundredths of an inch; 100 = two 25 mm bases)."
        ),
    ] = 100

    def __post_init__(self) -> None:
        if not FALL_ROLL.match(self.fall_roll):
            raise ValueError("fall_roll must be dice like 1d100 or 2d6")
        if self.contact_distance < 0:
            raise ValueError("contact_distance must be zero or more hundredths of an inch")
        for chart in (self.damage_chart, self.fall_chart):
            for row in chart or []:
                if row.min is not None and row.max is not None and row.min > row.max:
                    raise ValueError(f"chart row for {row.result} has min {row.min} above max {row.max}")


DEFAULTS: dict[str, Any] = defaults_of(SkirmishOptions)
# The encounter's value of an option (rules/options.py: a stored value, else the default).
option = reader(SkirmishOptions)
