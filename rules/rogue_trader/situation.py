"""The GM's rulings on where a model stands (spec 4.14)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ConditionChanged
from events.dice import Dice
from rules.rogue_trader.commands import SetSituation
from rules.rogue_trader.events import RtSituationSet
from rules.rogue_trader.models import living, model, rules_model


def decide_situation(
    state: dict[str, Any], cmd: SetSituation, dice: Dice, ruleset: Any
) -> list[msgspec.Struct]:
    """`RtSituationSet` with every field (omitted ones keep their value); `frenzied` is a condition."""
    c = model(state, cmd.combatant)
    rm = rules_model(state, c["id"])
    for other in (cmd.uphill_over or []) + (cmd.obstacle_against or []):
        model(state, other, "uphill_over/obstacle_against")
    out: list[msgspec.Struct] = [
        RtSituationSet(
            combatant=c["id"],
            uphill_over=list(cmd.uphill_over if cmd.uphill_over is not None else rm.get("uphill_over", [])),
            behind_obstacle=bool(
                cmd.behind_obstacle if cmd.behind_obstacle is not None else rm.get("behind_obstacle", False)
            ),
            obstacle_against=list(
                cmd.obstacle_against if cmd.obstacle_against is not None else rm.get("obstacle_against", [])
            ),
            prepared_position=bool(
                cmd.prepared_position
                if cmd.prepared_position is not None
                else rm.get("prepared_position", False)
            ),
            living=bool(cmd.living if cmd.living is not None else living(state, c)),
        )
    ]
    if cmd.frenzied is not None and cmd.frenzied != ("frenzied" in c.get("conditions", [])):
        out.append(ConditionChanged(combatant=c["id"], condition="frenzied", on=cmd.frenzied))
    return out
