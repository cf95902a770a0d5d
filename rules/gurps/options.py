"""The gurps options (spec: every **OPTION** marker) and how decide reads them from the state."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from rules.options import defaults_of, reader


def _retreat_bonus() -> dict[str, int]:
    # Spec section 4.5 DECISION (BASE, not confirmed): +3 dodge, +1 parry, +3 fencing/unarmed parry.
    return {"dodge": 3, "parry": 1, "parry_fencing_or_unarmed": 3}


def _posture_penalty() -> dict[str, int]:
    # Spec section 4.9 DECISION: the lead of a takedown who is not standing.
    return {"kneeling": -2, "lying": -4}


def _defence_posture_penalty() -> dict[str, int]:
    # DECISION (NOTES.md): the spec's "Dodge: as normal" is the Basic Set's, whose posture table takes
    # 2 from the active defences of a kneeling figure and 3 from one lying down; the seed is silent.
    return {"kneeling": -2, "lying": -3}


class GurpsOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Options of an encounter, with the spec's defaults."""

    failed_evade_stop: Annotated[
        Literal["foe_hex", "adjacent"],
        msgspec.Meta(
            description="Where a failed evader stops: in the foe's hex, in close combat (foe_hex), or in the hex it came from (adjacent)."
        ),
    ] = "foe_hex"
    assume_foes_stop: Annotated[
        bool,
        msgspec.Meta(description="Foes the GM controls always try to stop an evader, without being asked."),
    ] = False
    adjacent_close_combat: Annotated[
        bool,
        msgspec.Meta(
            description="The optional close combat from an adjacent hex (gurps.declare_close_combat)."
        ),
    ] = False
    crowded_evade: Annotated[
        Literal["refuse", "each_foe"],
        msgspec.Meta(
            description="Evading through a hex that holds two or more foes (the seed is silent): refused, since they fill the hex (refuse), or allowed by the GM, every foe there asked in turn to stop the evader (each_foe)."
        ),
    ] = "refuse"
    base_grapple_mode: Annotated[
        Literal["minimal", "gm"],
        msgspec.Meta(
            description="Grapple, takedown, pin and break free: the minimal rules (minimal), or the server rolls and the GM rules (gm)."
        ),
    ] = "minimal"
    helper_cost: Annotated[
        Literal["next_turn", "none"],
        msgspec.Meta(
            description="What helping a grapple costs: the helper's next own turn (next_turn), or nothing (none)."
        ),
    ] = "next_turn"
    retreat_bonus: Annotated[
        dict[str, int],
        msgspec.Meta(
            description="The defence bonus for retreating, by defence: dodge, parry, parry_fencing_or_unarmed."
        ),
    ] = msgspec.field(default_factory=_retreat_bonus)
    posture_penalty: Annotated[
        dict[str, int], msgspec.Meta(description="The penalty of a kneeling or lying figure.")
    ] = msgspec.field(default_factory=_posture_penalty)
    defence_posture_penalty: Annotated[
        dict[str, int],
        msgspec.Meta(description="The dodge, parry or block penalty of a kneeling or lying defender."),
    ] = msgspec.field(default_factory=_defence_posture_penalty)


DEFAULTS: dict[str, Any] = defaults_of(GurpsOptions)
# The encounter's value of an option (rules/options.py: a stored value, else the default).
option = reader(GurpsOptions)
