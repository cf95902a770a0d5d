"""The `ap-grapple` ruleset: unskilled wrestling (Make a Grab, Brawl) in an action-point d20 game.

Spec: /work/shared/rules/ap-grapple.md; seed "Grappling (hand-to-hand)". Choices: NOTES.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.common import TurnStarted
from events.dice import Dice
from rules.ap_grapple import acting, offers, playing, shapes
from rules.ap_grapple.brawl import decide_brawl
from rules.ap_grapple.combatants import completed_combatant
from rules.ap_grapple.commands import RULESET_COMMANDS, Brawl, MakeAGrab, Move, Pass, SwingTarget
from rules.ap_grapple.describe import describe_event
from rules.ap_grapple.events import RULESET_EVENTS
from rules.ap_grapple.grab import decide_grab
from rules.ap_grapple.legal import legal_commands
from rules.ap_grapple.options import ApGrappleOptions
from rules.ap_grapple.owed_swing import decide_swing_target, resume_swing
from rules.ap_grapple.passing import decide_pass
from rules.ap_grapple.rounds import stuns_ending, swing_pending_refusal, with_next_round_if_done
from rules.ap_grapple.state import evolve_rules, initial_rules
from rules.ap_grapple.swing import SWING_REACTION
from rules.ap_grapple.walking import decide_move, plain_move
from rules.common.commands import Move as PlainMove
from rules.common.commands import StartTurn
from rules.interface import Answer, Command, RuleError, Ruleset, geometry_hex

DECIDERS: dict[type[Command], Callable[[dict[str, Any], Any, Dice], list[msgspec.Struct]]] = {
    MakeAGrab: decide_grab,
    Brawl: decide_brawl,
    SwingTarget: decide_swing_target,
    Pass: decide_pass,
    Move: decide_move,
}


class ApGrapple(Ruleset, guide=playing, shapes=shapes):
    """Unskilled wrestling (Make a Grab, Brawl) in an action-point d20 game."""

    id = "ap-grapple"
    title = "AP grappling: unskilled wrestling (Make a Grab, Brawl)"
    # 2: issue 17, movement spends AP (ap-grapple.move; the plain move a walk once a round runs);
    # 3: a prone combatant may not charge (a brawl's path is a walk; NOTES.md)
    # 4: the swing's question in words ("to the left, to the right, into Aldo's own hex or against a wall
    # or other obstacle where Berk stands?"), not the answers' API names
    version = "4"
    Options = ApGrappleOptions
    commands = RULESET_COMMANDS
    events = RULESET_EVENTS
    deciders = DECIDERS
    bookkeeping = frozenset({"APSpent", "ActionSpent"})
    said_only_here = frozenset({("APSpent", "passed")})  # "Aldo passes, giving up 2 AP."
    geometry = geometry_hex()
    players_may_move = True  # the plain move is a walk that spends AP once a round runs (walking.py)
    overridable = ("ap_left", "ap_per_round", "stunned", "grips", "pending_swings", "shared_hexes")

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return completed_combatant(combatant)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        return with_next_round_if_done(state, super().decide(state, command, dice))

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        if isinstance(command, PlainMove):
            return with_next_round_if_done(state, plain_move(state, command, events))
        if isinstance(command, StartTurn):
            refusal = swing_pending_refusal(state["rules"])
            if refusal:
                raise RuleError(refusal)
            turn = next((e.turn for e in events if isinstance(e, TurnStarted)), None)
            if turn is not None:
                return [*events, *stuns_ending(state["rules"], turn)]
        return events

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        if pending.get("kind") != SWING_REACTION:
            return []
        return with_next_round_if_done(state, resume_swing(state, pending, answer, dice))

    evolve = staticmethod(evolve_rules)
    legal_actions = staticmethod(legal_commands)

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        return offers.offers(self, state, combatant)

    acting_now = staticmethod(acting.acting_now)
    next_slot = staticmethod(acting.next_slot)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe_event(state_before, event.type, event.data if isinstance(event.data, dict) else {})


ruleset = ApGrapple()
