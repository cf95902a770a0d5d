"""The `skirmish` ruleset: the Jackson Gamers' card-activated skirmish, hand to hand.

Spec: /work/shared/rules/skirmish.md; seed: seeds/002_1559c84f1c95f77c.txt ("HAND TO HAND COMBAT"). Modules, one
idea each: deck (card activation), flow (the flow chart: reach, strike, parry, counterstrike, evade), damage
(damage evaluation and results), grapple, prisoners, tables (the seed's modifier tables), charts (GM data),
reach and geometry (the open table), projection (state["rules"]), describe (log sentences). Choices the seed
leaves open are in NOTES.md.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ConditionChanged, ReactionAnswered, ReactionCancelled
from events.dice import Dice
from rules.common import commands as common
from rules.interface import Answer, BadCommand, Command, RuleError, Ruleset, command_type, geometry_plane
from rules.skirmish import (
    acting,
    deck,
    describe,
    figures,
    flow,
    grapple,
    moving,
    playing,
    prisoners,
    projection,
)
from rules.skirmish.charts import RESULTS
from rules.skirmish.commands import (
    GM_ONLY_COMMANDS,
    SKIRMISH_COMMANDS,
    CaptorActs,
    DrawCard,
    Grapple,
    Liberate,
    RecordDamageResult,
    RecordFall,
    RecordMorale,
    Strike,
)
from rules.skirmish.damage import DAMAGE_REACTION
from rules.skirmish.event_types import SKIRMISH_EVENTS, HandToHandEnded, PrisonerLiberated
from rules.skirmish.options import SkirmishOptions
from rules.skirmish.working import Working

GM_RESULT_REACTIONS = (DAMAGE_REACTION, grapple.FALL_REACTION, grapple.MORALE_REACTION)


class _RulesOnly:
    """What `rules.state.evolve` needs of a ruleset while a decision folds its own events."""

    @staticmethod
    def evolve(rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        return projection.evolve(rules_state, event)


class Skirmish(Ruleset):
    id = "skirmish"
    title = "Jackson Gamers' skirmish: hand to hand"
    version = "1"
    Options = SkirmishOptions
    commands = SKIRMISH_COMMANDS
    events = SKIRMISH_EVENTS
    phases = playing.PHASES
    stats = playing.STATS
    reactions = playing.REACTIONS
    first_turn = playing.FIRST_TURN
    geometry = geometry_plane(position_required=False)
    overridable = ("rules.wound_levels", "rules.exchange", "rules.holders", "rules.undrawn", "rules.fought")
    # The figure whose card is drawn moves and acts (seed; spec 1): players move their own figures with the plain
    # `move` while the card is theirs, and on_common refuses it otherwise (moving.py).
    players_may_move = True

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return projection.initial(options)

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return figures.validate(combatant)

    def _working(self, state: dict[str, Any], dice: Dice) -> Working:
        return Working(state, dice, _RulesOnly)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        w = self._working(state, dice)
        if isinstance(command, DrawCard):
            deck.draw_card(w)
        elif isinstance(command, Strike | Grapple):
            flow.start(w, command)
        elif isinstance(command, CaptorActs):
            prisoners.captor_acts(w, command)
        elif isinstance(command, Liberate):
            prisoners.liberate(w, command)
        elif isinstance(command, RecordDamageResult | RecordFall | RecordMorale):
            self._record(w, command)
        else:
            raise RuleError(f"{self.title} has no command {command_type(command)}")
        return w.events

    def _record(self, w: Working, command: RecordDamageResult | RecordFall | RecordMorale) -> None:
        """The GM's Record* commands answer the matching pending reaction, as `respond` would (spec 4.7, 4.8)."""
        kind, choice = {
            RecordDamageResult: lambda c: (DAMAGE_REACTION, c.result),
            RecordFall: lambda c: (grapple.FALL_REACTION, c.result),
            RecordMorale: lambda c: (grapple.MORALE_REACTION, "pass" if c.passed else "fail"),
        }[type(command)](command)
        pending = next((p for p in w.state.get("pending", []) if p.get("kind") == kind), None)
        if pending is None:
            raise RuleError(f"no {kind.replace('_', ' ')} is awaited from the GM now.")
        answer = Answer(choice, {}, "gm")
        w.emit(ReactionAnswered(pending["id"], choice, {}, "gm"))
        self._resume(w, pending, answer)

    def resume(self, state: dict[str, Any], pending: dict[str, Any], answer: Answer,
               dice: Dice) -> list[msgspec.Struct]:
        w = self._working(state, dice)
        self._resume(w, pending, answer)
        return w.events

    def _resume(self, w: Working, pending: dict[str, Any], answer: Answer) -> None:
        kind = pending.get("kind")
        if kind == flow.DEFENCE_REACTION:
            flow.answer_defence(w, pending, answer)
            return
        if kind not in GM_RESULT_REACTIONS:
            return
        if answer.params:
            raise BadCommand(f"the GM's {kind.replace('_', ' ')} takes only a choice, not "
                             f"{', '.join(sorted(answer.params))}", sorted(answer.params)[0])
        valid = ("pass", "fail") if kind == grapple.MORALE_REACTION else RESULTS
        if answer.choice not in valid:
            raise RuleError(f"{answer.choice!r} is not a {kind.replace('_', ' ')}: choose one of {', '.join(valid)}.")
        r = pending.get("resume", {})
        if any(r.get(k) not in w.state["combatants"] for k in ("attacker", "defender")):
            w.emit(ReactionCancelled(pending["id"], "a figure of this hand to hand has left the encounter"))
            ex = w.state["rules"].get("exchange") or {}
            if ex.get("attacker") == r.get("attacker") and ex.get("defender") == r.get("defender"):
                w.emit(HandToHandEnded(r["attacker"], r["defender"], "cancelled"))
            return
        if r.get("flow") == "strike":
            flow.after_damage_result(w, r, answer.choice)
        else:
            grapple.resume(w, pending, answer.choice)

    def on_common(self, state: dict[str, Any], command: Command, events: list[msgspec.Struct],
                  dice: Dice) -> list[msgspec.Struct]:
        if isinstance(command, common.Ruling):
            # DECISION (spec 4.9): a ruling that knocks out or routs a captor frees his prisoner at once.
            w = self._working(state, dice)
            w.emit(*[e for e in events if isinstance(e, msgspec.Struct)])
            before = len(w.events)
            prisoners.liberate_if_captor_down(w)
            return [*events, *w.events[before:]]
        if isinstance(command, common.Move):
            return moving.judge_move(state, command, events)
        if isinstance(command, common.RemoveCombatant):
            freed: list[msgspec.Struct] = []
            for p in figures.prisoners_of(state, command.combatant):
                freed += [ConditionChanged(p, "prisoner", False), PrisonerLiberated(p, command.combatant, "captor removed")]
            return [*freed, *events]
        return events

    def evolve(self, rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        return projection.evolve(rules_state, event)

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        if combatant not in state.get("combatants", {}):
            return []
        if state.get("pending"):
            mine = any(p.get("kind") == flow.DEFENCE_REACTION and p.get("combatant") == combatant
                       for p in state["pending"])
            return ["respond"] if mine else []
        actions = []
        if not flow.attacker_problems(state, combatant, "strike"):
            actions.append("skirmish.strike")
        if not flow.attacker_problems(state, combatant, "grapple"):
            actions.append("skirmish.grapple")
        if combatant in state["rules"].get("holders", []) and figures.prisoners_of(state, combatant):
            actions.append("skirmish.captor_acts")
        if not moving.move_problems(state, combatant):
            actions.append("move")
        return actions

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return acting.acting_now(state, self.legal_actions)

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        return acting.next_slot(state, combatant, self.legal_actions)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe.sentence(state_before, event.type, event.data or {})

    gm_commands = frozenset(cls.__struct_config__.tag for cls in GM_ONLY_COMMANDS)


ruleset = Skirmish()
