"""What the rules leave to the GM (spec §4): who sent a command, as the engine tells `command.actor`."""

from __future__ import annotations

from typing import Any

from rules.interface import Forbidden
from rules.rogue_trader.commands import BreakOff, FollowUp, PushBack, ResolveRound
from rules.rogue_trader.models import active_side, group_named, unit_members, unit_named

# The GM, or the engine acting on its own; every other actor (`seat:<id>`) is a player.
GM_ACTORS = frozenset({"gm", "system"})


def by_gm(command: Any) -> bool:
    """Whether the GM (not a player's seat) sent this command."""
    return getattr(command, "actor", "") in GM_ACTORS


def gm_only(command: Any, what: str) -> None:
    """Refuse (403) a GM decision a player tried to make; `what` names it."""
    if not by_gm(command):
        raise Forbidden(f"only the GM may {what}")


def command_actors(state: dict[str, Any], command: Any) -> list[str] | None:
    """Whose models a ruleset command needs, or None for the interface's default (its `combatant`).

    Unit commands need every model of the unit (DECISION, spec §4); a round, the active side's models in
    the group (forcing defaults is the GM's: `combat_round.decide_resolve`)."""
    if isinstance(command, (PushBack, FollowUp, BreakOff)):
        return unit_members(state, unit_named(state, command.unit))
    if isinstance(command, ResolveRound):
        gid = group_named(state, command.group)
        members = state.get("rules", {}).get("groups", {}).get(gid, []) if gid else []
        side = active_side(state)
        return [m for m in members if state["combatants"].get(m, {}).get("side") == side]
    return None
