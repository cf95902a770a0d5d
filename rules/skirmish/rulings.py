"""A GM ruling in a skirmish encounter: what it may change, and what follows from it.

The wound level lives in one place, `rules.wound_levels.<id>`: the flow chart reads it and every wound moves
it, and `stats.wound_level` shows it (the common fold mirrors it: `Skirmish.live_stats`). A ruling on the
mirror would be undone by it, so it is refused with the place to rule on instead (issue 17; NOTES.md)."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from events.dice import Dice
from rules.common.commands import Ruling
from rules.interface import RuleError
from rules.skirmish import prisoners


def ruling_problems(command: Ruling) -> list[str]:
    """Each override of this ruling that targets a copy the rules do not read."""
    problems = []
    for cid, patch in ((command.overrides or {}).get("combatants") or {}).items():
        stats = patch.get("stats") if isinstance(patch, dict) else None
        if isinstance(stats, dict) and "wound_level" in stats:
            wanted = json.dumps({"rules": {"wound_levels": {cid: stats["wound_level"]}}})
            problems.append(
                f"combatants.{cid}.stats.wound_level only shows rules.wound_levels.{cid}, the wound level the "
                f"rules read and every wound changes: rule with overrides {wanted}"
            )
    return problems


def judge_ruling(
    state: dict[str, Any], command: Ruling, events: list[msgspec.Struct], dice: Dice
) -> list[msgspec.Struct]:
    """Refuse an override of a copy the rules do not read; then free any prisoner whose captor it put down."""
    problems = ruling_problems(command)
    if problems:
        raise RuleError("; ".join(problems) + ".", {"problems": problems})
    return prisoners.after_ruling(state, events, dice)
