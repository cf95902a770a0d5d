"""The `rogue-trader` ruleset: Rogue Trader (1987) hand-to-hand combat.

Spec: shared/rules/rogue-trader.md (seed 004). One module per idea: charges (`charging`), attack
allocation and to-hit modifiers (`allocation`), one blow (`attacks`), the round (`combat_round`),
push-backs and follow-ups (`aftermath`), breaking off (`breaking_off`), coherency (`coherency`),
the common commands (`turn_sequence`), the fold (`state`) and the log (`describe`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import Dice
from rules.interface import Answer, Command, Ruleset, geometry_plane, unknown_command
from rules.rogue_trader import (
    acting,
    aftermath,
    breaking_off,
    charging,
    combat_round,
    legal,
    playing,
    roster,
    situation,
)
from rules.rogue_trader.commands import (
    RT_COMMANDS,
    AllocateAttacks,
    BreakOff,
    Charge,
    FollowUp,
    PushBack,
    ResolveRound,
    Retarget,
    SetSituation,
)
from rules.rogue_trader.describe import describe_event
from rules.rogue_trader.events import RT_EVENTS
from rules.rogue_trader.models import active_side, unit_members
from rules.rogue_trader.options import RogueTraderOptions
from rules.rogue_trader.state import evolve_rules, initial_rules_state
from rules.rogue_trader.turn_sequence import on_common as common_hook


class RogueTrader(Ruleset):
    id = "rogue-trader"
    title = "Rogue Trader (1987) hand-to-hand combat"
    version = "1"
    Options = RogueTraderOptions
    commands = RT_COMMANDS
    events = RT_EVENTS
    phases = playing.PHASES
    stats = playing.STATS
    reactions = playing.REACTIONS
    first_turn = playing.FIRST_TURN
    geometry = geometry_plane()
    # Players move their own models with the common `move`; on_common refuses moves the rules forbid
    # (into contact: declare a charge; after a failed charge or a break-off).
    players_may_move = True
    overridable = ("rules.models", "rules.units", "rules.contacts", "rules.groups", "rules.owed", "rules.charge",
                   "rules.allocations")

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules_state()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return roster.complete(state, combatant)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        if isinstance(command, Charge):
            return charging.decide_charge(state, command, self)
        if isinstance(command, Retarget):
            return charging.decide_retarget(state, command, self)
        if isinstance(command, AllocateAttacks):
            return combat_round.decide_allocate(state, command, self)
        if isinstance(command, ResolveRound):
            return combat_round.decide_resolve(state, command, dice, self)
        if isinstance(command, PushBack):
            return aftermath.decide_push_back(state, command, self)
        if isinstance(command, FollowUp):
            return aftermath.decide_follow_up(state, command, dice, self)
        if isinstance(command, BreakOff):
            return breaking_off.decide_break_off(state, command, dice, self)
        if isinstance(command, SetSituation):
            return situation.decide_situation(state, command)
        raise unknown_command(self, command)

    def on_common(self, state: dict[str, Any], command: Command, events: list[msgspec.Struct],
                  dice: Dice) -> list[msgspec.Struct]:
        return common_hook(state, command, events, dice, self)

    def resume(self, state: dict[str, Any], pending: dict[str, Any], answer: Answer,
               dice: Dice) -> list[msgspec.Struct]:
        if pending.get("kind") == "charged":
            return charging.resume_charged(state, pending, answer, dice, self)
        return []

    def evolve(self, rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        return evolve_rules(rules_state, event)

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        return legal.legal_actions(state, combatant)

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return acting.acting_now(state)

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        return acting.next_slot(state, combatant)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe_event(state_before, event)

    def actors(self, state: dict[str, Any], command: Command) -> list[str]:
        """Unit commands need every model of the unit (DECISION, spec §4); a round, the active side's
        models in the group (forcing defaults is the GM's: `combat_round.decide_resolve`)."""
        if isinstance(command, (PushBack, FollowUp, BreakOff)):
            return unit_members(state, command.unit)
        if isinstance(command, ResolveRound):
            members = state.get("rules", {}).get("groups", {}).get(command.group, [])
            side = active_side(state)
            return [m for m in members if state["combatants"].get(m, {}).get("side") == side]
        return super().actors(state, command)

    # 4.14 "Situation (GM)": only the GM sets a model's situation (players get 403).
    gm_commands = frozenset({SetSituation.__struct_config__.tag})


ruleset = RogueTrader()
