"""Encounter options of the `tft` ruleset (spec section 1 and the toggles of section 7)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from rules.options import defaults_of, reader


def _about(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class TftOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every option with the spec's default; the resolved values go into `EncounterCreated.options`."""

    diving_for_legs: Annotated[
        bool,
        _about(  # §Options 3, §Notes
            "Way 3: a figure may dive for an adjacent enemy's legs at the end of its move (tft.dive_for_legs)."
        ),
    ] = True
    pins: Annotated[
        bool,
        _about(  # §Pin, §Break-Pin (optional rules)
            "The optional pin rules: tft.pin, tft.break_pin and tft.release_pin in a fallen brawl."
        ),
    ] = False
    standing_in_hth: Annotated[
        bool,
        _about(  # §Standing (optional)
            "The optional standing HTH: two standing figures may stay on their feet, with Take Down contests."
        ),
    ] = False
    first_turn_draw: Annotated[
        bool,
        _about(  # §Notes
            "On the turn a figure gets into HTH it may draw a dagger instead of attacking."
        ),
    ] = False
    pin_resolution: Annotated[
        Literal["contest", "gm"],
        _about(  # A1
            "How a pin is settled: a DX contest of dice (contest), or the GM rules on each attempt (gm)."
        ),
    ] = "contest"
    fist_damage: Annotated[
        Literal["flat", "by_st"],
        _about(  # A2
            "Bare-handed damage: flat 1d6-4, or by_st from 1d6-4 (ST 8 or less) up to 3d6+1 (ST 41-50)."
        ),
    ] = "flat"
    standing_vote: Annotated[
        Literal["dissent_contest", "majority_first"],
        _about(  # A14
            "A standing group's vote: any wish to fall short of a majority brings a Take Down (dissent_contest), "
            "or more than half wishing to stand keeps it up (majority_first)."
        ),
    ] = "dissent_contest"
    keep_hth_weapons_on_entry: Annotated[
        bool,
        _about(  # A5
            "On getting into HTH keep ready weapons usable there (daggers), instead of dropping all."
        ),
    ] = False
    strongest_uses_remaining_st: Annotated[
        bool,
        _about(  # A11
            '"Strongest" compares the ST left after wounds, not the full ST.'
        ),
    ] = False
    dive_is_entry_condition: Annotated[
        bool,
        _about(  # A25
            "Diving for the legs is itself an entry condition (no C1-C4 needed), unless the defender's MA is at "
            "least twice the diver's."
        ),
    ] = False
    judo_throw_prone: Annotated[
        bool,
        _about(  # A8
            "A figure thrown by Judo lands prone (off: it keeps its posture)."
        ),
    ] = False
    attack_criticals: Annotated[
        bool,
        _about(  # A3
            "HTH attacks and strikes into HTH have critical results: the lowest rolls hit harder, 17 and 18 "
            "fumble (drop the weapon)."
        ),
    ] = True
    prone_crawl_hexes: Annotated[
        int,
        _about(  # A30
            "Hexes a prone figure may crawl in its move (Judo 2 crawls 3)."
        ),
    ] = 1


DEFAULTS: dict[str, Any] = defaults_of(TftOptions)
# The encounter's value of an option (rules/options.py: a stored value, else the default).
option = reader(TftOptions)
