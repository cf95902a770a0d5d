"""The encounter options of ap-grapple (spec sections 1, 4 and 6, each marked OPTION)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class ApGrappleOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Every OPTION of the spec with its default."""

    # Section 1: when true, only the first combatant in the initiative order with AP left may act.
    strict_initiative: bool = False
    # Section 1 table: "thac0_minus_ac", or "gm_target" (each to-hit command carries `to_hit_target`).
    to_hit: Literal["thac0_minus_ac", "gm_target"] = "thac0_minus_ac"
    natural_20_hits: bool = False
    natural_1_misses: bool = False
    # Section 6 row 3: "through_next_round" (stunned until the end of the next round) or "rest_of_round".
    stun_duration: Literal["through_next_round", "rest_of_round"] = "through_next_round"
    # Section 4.3: left, right and own hex; "any_adjacent_to_attacker" adds every other open hex next to A.
    swing_destinations: Literal["shared_neighbours_and_own", "any_adjacent_to_attacker"] = (
        "shared_neighbours_and_own"
    )
    # Section 4.4: how a weight ratio between two table rows is read.
    brawl_ratio_rule: Literal["toward_even", "lower_row"] = "toward_even"
    # Section 4.1: the server starts the next round once every combatant has spent its AP or passed
    # (a stunned one counts as passed). DECISION (NOTES.md): an option so a GM can keep rounds manual.
    auto_start_round: bool = True


_DEFAULTS = msgspec.to_builtins(ApGrappleOptions())


def option(state: dict[str, Any], name: str) -> Any:
    """The option's value in this encounter: the stored value, else the spec's default."""
    return (state.get("options") or {}).get(name, _DEFAULTS[name])
