"""The `rogue-trader` ruleset: Rogue Trader (1987) hand-to-hand combat.

Spec: shared/rules/rogue-trader.md (seed 004). One module per idea: charges (`charging`), attack
allocation and to-hit modifiers (`allocation`), one blow (`attacks`), the round (`combat_round`),
ordinary moves (`movement`), push-backs and follow-ups (`aftermath`), breaking off (`breaking_off`),
coherency (`coherency`), the common commands (`turn_sequence`), the fold (`state`) and the log (`describe`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.dice import Dice
from rules.interface import Answer, Command, Ruleset, geometry_plane
from rules.rogue_trader import acting, legal, offers, playing, roster, shapes
from rules.rogue_trader.aftermath import STOP_KIND, decide_follow_up, decide_push_back, resume_push_back
from rules.rogue_trader.authority import command_actors
from rules.rogue_trader.breaking_off import decide_break_off
from rules.rogue_trader.charging import closed_answers, decide_charge, decide_retarget, resume_charged
from rules.rogue_trader.combat_round import decide_allocate, decide_resolve
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
from rules.rogue_trader.describe import describe_event, is_aside
from rules.rogue_trader.events import RT_EVENTS
from rules.rogue_trader.options import RogueTraderOptions
from rules.rogue_trader.situation import decide_situation
from rules.rogue_trader.state import evolve_rules, initial_rules_state
from rules.rogue_trader.turn_sequence import on_common as common_hook

# Each command's decider: (state, command, dice, ruleset) -> events, or a RuleError saying which rule.
DECIDERS: dict[type[Command], Callable[[dict[str, Any], Any, Dice, Any], list[msgspec.Struct]]] = {
    Charge: decide_charge,
    Retarget: decide_retarget,
    AllocateAttacks: decide_allocate,
    ResolveRound: decide_resolve,
    PushBack: decide_push_back,
    FollowUp: decide_follow_up,
    BreakOff: decide_break_off,
    SetSituation: decide_situation,
}

# What a `resume` continues, by the pending reaction's kind.
RESUMERS = {"charged": resume_charged, STOP_KIND: resume_push_back}


class RogueTrader(Ruleset, guide=playing, shapes=shapes):
    id = "rogue-trader"
    title = "Rogue Trader (1987) hand-to-hand combat"
    # 3: issue 29 (the follow-up +1 is the pusher's; stand and fire, or run away, not both); 4: a push-back
    # into another model's base is the GM's question (issue 29 item 9); 5: a charge's question offers only the
    # answers the rules allow now (issue 29 item 7); 6: the charge's question says in words that the
    # charged model may turn to face the charger, and each answer offers it (§Being Charged)
    version = "6"
    Options = RogueTraderOptions
    commands = RT_COMMANDS
    events = RT_EVENTS
    deciders = DECIDERS
    geometry = geometry_plane()
    # Players move their own models with the common `move`; on_common refuses moves the rules forbid
    # (into contact: declare a charge; after a failed charge or a break-off).
    players_may_move = True
    overridable = (
        "rules.models",
        "rules.units",
        "rules.contacts",
        "rules.groups",
        "rules.owed",
        "rules.charge",
        "rules.allocations",
    )

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules_state()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return roster.complete(state, combatant)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        return self.decider(command)(state, command, dice, self)

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        return common_hook(state, command, events, dice, self)

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        fn = RESUMERS.get(pending.get("kind"))
        return fn(state, pending, answer, dice, self) if fn else []

    def refused_choice(self, state: dict[str, Any], pending: dict[str, Any], choice: str) -> str | None:
        target = state["combatants"].get(pending.get("combatant") or "")
        if pending.get("kind") != "charged" or target is None:
            return None
        return closed_answers(state, target).get(choice)

    evolve = staticmethod(evolve_rules)
    legal_actions = staticmethod(legal.legal_actions)

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        return offers.offers(self, state, combatant)

    acting_now = staticmethod(acting.acting_now)
    next_slot = staticmethod(acting.next_slot)
    describe = staticmethod(describe_event)

    def aside(self, state_before: dict[str, Any], event: Any) -> bool:
        return is_aside(state_before, event.type, event.data)

    def actors(self, state: dict[str, Any], command: Command) -> list[str]:
        needed = command_actors(state, command)
        return super().actors(state, command) if needed is None else needed

    # 4.14 "Situation (GM)": only the GM sets a model's situation (players get 403).
    gm_commands = frozenset({SetSituation.__struct_config__.tag})


ruleset = RogueTrader()
