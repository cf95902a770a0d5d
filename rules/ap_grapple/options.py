"""The encounter options of ap-grapple (spec sections 1, 4 and 6, each marked OPTION)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.options import reader


class ApGrappleOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Every OPTION of the spec with its default."""

    # Section 1: when true, only the first combatant in the initiative order with AP left may act.
    strict_initiative: Annotated[
        bool,
        msgspec.Meta(description="Only the first combatant in the initiative order with AP left may act."),
    ] = False
    # Section 1 table: "thac0_minus_ac", or "gm_target" (each to-hit command carries `to_hit_target`).
    to_hit: Annotated[
        Literal["thac0_minus_ac", "gm_target"],
        msgspec.Meta(
            description="How a to-hit target is found: THAC0 minus AC (thac0_minus_ac), or the GM states it on each command (gm_target)."
        ),
    ] = "thac0_minus_ac"
    natural_20_hits: Annotated[bool, msgspec.Meta(description="A natural 20 always hits.")] = False
    natural_1_misses: Annotated[bool, msgspec.Meta(description="A natural 1 always misses.")] = False
    # Section 6 row 3: "through_next_round" (stunned until the end of the next round) or "rest_of_round".
    stun_duration: Annotated[
        Literal["through_next_round", "rest_of_round"],
        msgspec.Meta(description="How long a stun lasts: through the next round, or the rest of this round."),
    ] = "through_next_round"
    # Section 4.3: left, right and own hex; "any_adjacent_to_attacker" adds every other open hex next to A.
    swing_destinations: Annotated[
        Literal["shared_neighbours_and_own", "any_adjacent_to_attacker"],
        msgspec.Meta(
            description="Where a swing may put its victim: the hexes both share and the attacker's own, or any open hex next to the attacker."
        ),
    ] = "shared_neighbours_and_own"
    # Section 4.4: how a weight ratio between two table rows is read.
    brawl_ratio_rule: Annotated[
        Literal["toward_even", "lower_row"],
        msgspec.Meta(
            description="How a weight ratio between two table rows is read: toward even, or the lower row."
        ),
    ] = "toward_even"
    # Section 4.1: the server starts the next round once every combatant has spent its AP or passed
    # (a stunned one counts as passed). DECISION (NOTES.md): an option so a GM can keep rounds manual.
    auto_start_round: Annotated[
        bool,
        msgspec.Meta(
            description="The server starts the next round once everyone has spent its AP or passed (off: the GM starts each round)."
        ),
    ] = True


# The encounter's value of an option (rules/options.py: a stored value, else the default).
option = reader(ApGrappleOptions)
