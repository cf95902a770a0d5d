"""The HTH defense roll as literal tables (spec 4.5; seed §Entering, §Dive-Block-1/2, §Judo-1/2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from events.dice import Modifier
from rules.tft import figures as F
from rules.tft.tables import DEFENSE_RESULTS, JUDO_THROW_FROM


class DefenseContext(NamedTuple):
    state: dict[str, Any]
    entrant: dict[str, Any]
    defender: dict[str, Any]
    dive: bool
    entrant_judo2_shift: int  # the entrant's choice, default -1 (A9)
    defender_prefs: dict[str, Any]
    diving_allowed: bool  # OPTION diving_for_legs: when false Dive Block has no effect


class DefenseModifier(NamedTuple):
    reason: str
    value: Callable[[DefenseContext], int]
    source: str


# Modifiers to the defender's 1d6 (4.5), in the order the log lists them.
DEFENSE_MODIFIERS: tuple[DefenseModifier, ...] = (
    DefenseModifier("entrant's Judo", lambda c: -1 if F.judo(c.entrant) >= 1 else 0, "§Entering, §Judo-1"),
    DefenseModifier(
        "entrant's Judo 2 choice", lambda c: c.entrant_judo2_shift if F.judo(c.entrant) >= 2 else 0, "§Judo-2"
    ),
    DefenseModifier(
        "defender's Judo 1",
        lambda c: 1 if F.judo(c.defender) >= 1 and c.defender_prefs["use_judo1_defense"] else 0,
        "§Judo-1",
    ),
    DefenseModifier(
        "defender's Judo 2 choice",
        lambda c: int(c.defender_prefs["judo2_shift_defense"]) if F.judo(c.defender) >= 2 else 0,
        "§Judo-2",
    ),
    DefenseModifier("diving for the legs", lambda c: 1 if c.dive else 0, "§Options 3, §Entering"),
    DefenseModifier(
        "Dive Block 1",
        lambda c: 1 if c.dive and c.diving_allowed and F.dive_block(c.defender) >= 1 else 0,
        "§Dive-Block-1",
    ),
    DefenseModifier(
        "Dive Block 2",
        lambda c: 2 if c.dive and c.diving_allowed and F.dive_block(c.defender) >= 2 else 0,
        "§Dive-Block-2",
    ),
)


def defense_modifiers(ctx: DefenseContext) -> list[Modifier]:
    """The non-zero modifiers of the table for this entry, each with its reason."""
    out = []
    for row in DEFENSE_MODIFIERS:
        v = row.value(ctx)
        if v:
            out.append(Modifier(v, row.reason))
    return out


def result_for(total: int) -> str:
    """The row of the result table for a modified total M."""
    for low, high, result in DEFENSE_RESULTS:
        if (low is None or total >= low) and (high is None or total <= high):
            return result
    raise AssertionError("the defense table covers every total")


def may_throw(total: int, entrant: dict[str, Any], defender: dict[str, Any]) -> bool:
    """The 7+ row: the defender may throw instead of the free hit (§Judo-1, A8, A28)."""
    return (
        total >= JUDO_THROW_FROM
        and F.judo(defender) >= 1
        and F.unarmed(defender)
        and not F.stat(entrant, "large", False)
    )
