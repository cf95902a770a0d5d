"""The `skirmish` ruleset: the Jackson Gamers' card-activated skirmish, hand to hand.

Spec: /work/shared/rules/skirmish.md; seed: seeds/002_1559c84f1c95f77c.txt ("HAND TO HAND COMBAT"). Wiring
only: the rules live in one module each (deck, flow, damage, grapple, prisoners, moving, gm_results, ...);
choices the seed leaves open are in NOTES.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from events.dice import Dice
from rules.common import commands as common
from rules.interface import Answer, Command, Ruleset, geometry_plane
from rules.skirmish import (
    acting,
    deck,
    defence,
    describe,
    figures,
    flow,
    gm_results,
    legal,
    moving,
    offers,
    playing,
    prisoners,
    rulings,
    shapes,
)
from rules.skirmish import commands as c
from rules.skirmish import (
    state as fold,
)
from rules.skirmish.commands import GM_ONLY_COMMANDS, SKIRMISH_COMMANDS
from rules.skirmish.events import SKIRMISH_EVENTS
from rules.skirmish.options import SkirmishOptions
from rules.skirmish.working import Decider, decider, working
from rules.working import Working

DECIDERS: dict[type[Command], Decider] = {
    c.DrawCard: decider(deck.draw_card),
    c.Strike: decider(flow.start),
    c.Grapple: decider(flow.start),
    c.CaptorActs: decider(prisoners.captor_acts),
    c.Liberate: decider(prisoners.liberate),
    c.RecordDamageResult: decider(gm_results.record),
    c.RecordFall: decider(gm_results.record),
    c.RecordMorale: decider(gm_results.record),
}

# Who answers a reaction: the defender's parry or evade, or the GM's results.
RESUMERS: dict[str, Callable[[Working, dict[str, Any], Answer], None]] = {
    flow.DEFENCE_REACTION: flow.answer_defence,
    **{kind: gm_results.resume for kind in gm_results.GM_RESULT_REACTIONS},
}

# The common commands skirmish adds to or refuses (NOTES.md).
ON_COMMON: dict[
    type[Command], Callable[[dict[str, Any], Any, list[msgspec.Struct], Dice], list[msgspec.Struct]]
] = {
    common.Ruling: rulings.judge_ruling,
    common.Move: lambda s, cmd, events, dice: moving.judge_move(s, cmd, events),
    common.RemoveCombatant: lambda s, cmd, events, dice: [
        *prisoners.captor_removed(s, cmd.combatant),
        *events,
    ],
}


class Skirmish(Ruleset, guide=playing, shapes=shapes):
    id = "skirmish"
    title = "Jackson Gamers' skirmish: hand to hand"
    version = "5"  # 5: one captor's act a card (NOTES.md); 4: the last undrawn card is turned up without a 1d1 roll; 3: stats.wound_level shows the current wound level
    live_stats: ClassVar[dict[str, str]] = {"wound_level": "wound_levels"}
    Options = SkirmishOptions
    commands = SKIRMISH_COMMANDS
    events = SKIRMISH_EVENTS
    deciders = DECIDERS
    geometry = geometry_plane(position_required=False)
    overridable = ("rules.wound_levels", "rules.exchange", "rules.holders", "rules.undrawn", "rules.fought")
    # The figure whose card is drawn moves and acts (seed; spec 1): players move their own figures with the plain
    # `move` while the card is theirs, and on_common refuses it otherwise (moving.py).
    players_may_move = True
    gm_commands = frozenset(cls.__struct_config__.tag for cls in GM_ONLY_COMMANDS)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return fold.initial(options)

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return figures.validate(combatant)

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        fn = RESUMERS.get(pending.get("kind") or "")
        if fn is None:
            return []
        w = working(state, dice)
        fn(w, pending, answer)
        return w.events

    def refused_choice(self, state: dict[str, Any], pending: dict[str, Any], choice: str) -> str | None:
        if pending.get("kind") != flow.DEFENCE_REACTION or choice not in defence.DEFENCES:
            return None
        return defence.refusal(state, pending["combatant"], choice)

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        fn = ON_COMMON.get(type(command))
        return events if fn is None else fn(state, command, events, dice)

    evolve = staticmethod(fold.evolve)
    legal_actions = staticmethod(legal.legal_actions)

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        return offers.offers(self, state, combatant)

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return acting.acting_now(state, legal.legal_actions)

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        return acting.next_slot(state, combatant, legal.legal_actions)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe.sentence(state_before, event.type, event.data or {})

    # The wound levels a blow adds (WoundLevelChanged and the damage sentence say them) and the end of an
    # activation (the next card says it).
    bookkeeping = frozenset({"Wounded", "ActionSpent"})

    def aside(self, state_before: dict[str, Any], event: Any) -> bool:
        return super().aside(state_before, event) or describe.is_aside(
            state_before, event.type, event.data or {}
        )


ruleset = Skirmish()
