"""The gurps options (spec: every **OPTION** marker) and how decide reads them from the state."""

from __future__ import annotations

from typing import Any, Literal

import msgspec


def _retreat_bonus() -> dict[str, int]:
    # Spec section 4.5 DECISION (BASE, not confirmed): +3 dodge, +1 parry, +3 fencing/unarmed parry.
    return {"dodge": 3, "parry": 1, "parry_fencing_or_unarmed": 3}


def _posture_penalty() -> dict[str, int]:
    # Spec section 4.9 DECISION: the lead of a takedown who is not standing.
    return {"kneeling": -2, "lying": -4}


class GurpsOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Options of an encounter, with the spec's defaults."""

    failed_evade_stop: Literal["foe_hex", "adjacent"] = "foe_hex"
    assume_foes_stop: bool = False
    adjacent_close_combat: bool = False
    base_grapple_mode: Literal["minimal", "gm"] = "minimal"
    helper_cost: Literal["next_turn", "none"] = "next_turn"
    retreat_bonus: dict[str, int] = msgspec.field(default_factory=_retreat_bonus)
    posture_penalty: dict[str, int] = msgspec.field(default_factory=_posture_penalty)


DEFAULTS: dict[str, Any] = msgspec.to_builtins(GurpsOptions())


def option(state: dict[str, Any], key: str) -> Any:
    """The option's value in force (the encounter's, else the default)."""
    value = (state.get("options") or {}).get(key)
    return DEFAULTS[key] if value is None else value
