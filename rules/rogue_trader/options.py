"""Encounter options of the `rogue-trader` ruleset (spec §1)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from rules.rogue_trader.tables import DEFAULT_HIGH_TO_HIT, DEFAULT_WOUND_CHART


class RogueTraderOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every option with the spec's default; the resolved values go into `EncounterCreated.options`."""

    initiative_ties: Literal["simultaneous", "roll_off"] = "simultaneous"  # §Order of Attack, A4
    high_to_hit: dict[str, int] = msgspec.field(default_factory=lambda: dict(DEFAULT_HIGH_TO_HIT))
    wound_chart: list[list[int | str]] = msgspec.field(
        default_factory=lambda: [list(row) for row in DEFAULT_WOUND_CHART])
    strength_save_mods: bool = False
    rout_test_on_loss: bool = True  # A8
    rout_flee_in: int = 4  # inches
    count_overkill: bool = True  # A7
    turn_to_face_in_round: bool = True  # A20
    slow_weapon_bars_model: bool = True  # A17
    # Stand-and-fire score by BS ("1".."10"); empty: 7 - BS, minimum 2 (unconfirmed, shooting not in seed).
    shoot_to_hit: dict[str, int] = msgspec.field(default_factory=dict)
    nonliving_tail_damage: int = 1  # A24
    # DECISION: the seed's players alternate turns without saying who goes first; turn n belongs to
    # turn_order[(n - 1) % len] (empty: sides in the order their first model joined).
    turn_order: list[str] = msgspec.field(default_factory=list)


DEFAULTS: dict[str, Any] = msgspec.to_builtins(RogueTraderOptions())


def option(state: dict[str, Any], name: str) -> Any:
    """The encounter's value of an option (the default when the encounter predates it)."""
    return state.get("options", {}).get(name, DEFAULTS[name])
