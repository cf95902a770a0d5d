"""Encounter options of the `tft` ruleset (spec section 1 and the toggles of section 7)."""

from __future__ import annotations

from typing import Literal

import msgspec


class TftOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every option with the spec's default; the resolved values go into `EncounterCreated.options`."""

    diving_for_legs: bool = True  # §Options 3, §Notes
    pins: bool = False  # §Pin, §Break-Pin (optional rules)
    standing_in_hth: bool = False  # §Standing (optional)
    first_turn_draw: bool = False  # §Notes: attack OR draw a dagger on the entry turn
    pin_resolution: Literal["contest", "gm"] = "contest"  # A1
    fist_damage: Literal["flat", "by_st"] = "flat"  # A2
    standing_vote: Literal["dissent_contest", "majority_first"] = "dissent_contest"  # A14
    keep_hth_weapons_on_entry: bool = False  # A5
    strongest_uses_remaining_st: bool = False  # A11
    dive_is_entry_condition: bool = False  # A25
    judo_throw_prone: bool = False  # A8
    attack_criticals: bool = True  # A3
    prone_crawl_hexes: int = 1  # A30


DEFAULTS: dict = msgspec.to_builtins(TftOptions())


def option(state: dict, name: str):
    """The encounter's value of a tft option (the default when the encounter predates it)."""
    return state.get("options", {}).get(name, DEFAULTS[name])
