"""Encounter options of the `rogue-trader` ruleset (spec §1)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from rules.options import defaults_of, reader
from rules.rogue_trader.tables import DEFAULT_HIGH_TO_HIT, DEFAULT_WOUND_CHART


class RogueTraderOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every option with the spec's default; the resolved values go into `EncounterCreated.options`."""

    initiative_ties: Annotated[
        Literal["simultaneous", "roll_off"],
        msgspec.Meta(
            description="Models with equal initiative strike at once (simultaneous) or roll off (roll_off)."
        ),
    ] = "simultaneous"  # §Order of Attack, A4
    high_to_hit: Annotated[
        dict[str, int],
        msgspec.Meta(
            description='Second-roll scores for needs of 7 or more, e.g. {"7": 4} (needs above the last key cannot hit).'
        ),
    ] = msgspec.field(default_factory=lambda: dict(DEFAULT_HIGH_TO_HIT))
    wound_chart: Annotated[
        list[list[int | str]],
        msgspec.Meta(
            description='The 10x10 strength-against-toughness chart, values 2-6 or "N" (no effect).'
        ),
    ] = msgspec.field(default_factory=lambda: [list(row) for row in DEFAULT_WOUND_CHART])
    strength_save_mods: Annotated[
        bool, msgspec.Meta(description="High strength worsens armour saves (S4 -1, S5 -2 ...).")
    ] = False
    rout_test_on_loss: Annotated[
        bool, msgspec.Meta(description="The unit that loses a round of combat takes a rout test.")
    ] = True  # A8
    rout_flee_in: Annotated[
        int,
        msgspec.Meta(
            description="How far (inches) a unit flees at once when it fails a rout test after losing a round."
        ),
    ] = 4  # inches
    count_overkill: Annotated[
        bool,
        msgspec.Meta(description="Wounds beyond a victim's remaining W still count for the round's result."),
    ] = True  # A7
    turn_to_face_in_round: Annotated[
        bool,
        msgspec.Meta(
            description="At a round's start a model with no enemy in front may turn to face one, free."
        ),
    ] = True  # A20
    slow_weapon_bars_model: Annotated[
        bool, msgspec.Meta(description="A model carrying any slow weapon may not stand and fire at all.")
    ] = True  # A17
    # Stand-and-fire score by BS ("1".."10"); empty: 7 - BS, minimum 2 (unconfirmed, shooting not in seed).
    shoot_to_hit: Annotated[
        dict[str, int],
        msgspec.Meta(description='Stand-and-fire score by BS ("1".."10"); empty: 7 - BS, at least 2.'),
    ] = msgspec.field(default_factory=dict)
    nonliving_tail_damage: Annotated[
        int, msgspec.Meta(description="Tail damage against targets that are not living.")
    ] = 1  # A24
    # DECISION: the seed's players alternate turns without saying who goes first; turn n belongs to
    # turn_order[(n - 1) % len] (empty: sides in the order their first model joined).
    turn_order: Annotated[
        list[str],
        msgspec.Meta(
            description="The sides in the order they take turns (empty: in the order their first model joined)."
        ),
    ] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        # msgspec turns a ValueError here into the 400 that names the option (a malformed table would
        # otherwise fail only mid-round).
        problems = _table_problems(self)
        if problems:
            raise ValueError("; ".join(problems))


def _table_problems(o: RogueTraderOptions) -> list[str]:
    """What is wrong with the GM's tables (spec §1, §7), in plain words."""
    problems = []
    rows = o.wound_chart
    if len(rows) != 10 or any(len(row) != 10 for row in rows):
        problems.append("wound_chart must be 10 rows (S 1-10) of 10 values (T 1-10)")
    elif any(v != "N" and (isinstance(v, str) or not 2 <= v <= 6) for row in rows for v in row):
        problems.append('wound_chart values must be 2-6 or "N" (no effect)')
    if any(not k.isdigit() or int(k) < 7 for k in o.high_to_hit):
        problems.append("high_to_hit keys must be the needs 7, 8, 9 ... (as strings)")
    if any(not 2 <= v <= 6 for v in o.high_to_hit.values()):
        problems.append("high_to_hit values must be second-die scores 2-6")
    if any(not k.isdigit() or int(k) > 10 for k in o.shoot_to_hit):
        problems.append("shoot_to_hit keys must be BS values 0-10 (as strings)")
    if any(not 2 <= v <= 9 for v in o.shoot_to_hit.values()):
        problems.append("shoot_to_hit values must be scores 2-9")
    if o.rout_flee_in < 0:
        problems.append("rout_flee_in must not be negative (inches)")
    if o.nonliving_tail_damage < 0:
        problems.append("nonliving_tail_damage must not be negative")
    return problems


DEFAULTS: dict[str, Any] = defaults_of(RogueTraderOptions)
# The encounter's value of an option (rules/options.py: a stored value, else the default).
option = reader(RogueTraderOptions)
