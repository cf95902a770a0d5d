"""A test-only ruleset: a grab that asks the target to resist or yield, resumed with dice on respond."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from events.common import (
    ActionDeclared,
    CloseCombatJoined,
    PinApplied,
    PinHeld,
    ReactionCancelled,
    ReactionRequested,
)
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.common.commands import StartTurn
from rules.interface import Answer, Command, RuleError, Ruleset, combatant_or_error, geometry_hex


class ProbeOptions(msgspec.Struct, forbid_unknown_fields=True):
    escape_on: Annotated[
        int, msgspec.Meta(description="A resisting target escapes on 1d6 at least this.")
    ] = 4


class Grab(Command, tag="probe.grab"):
    combatant: str
    target: str


class Grabbed(msgspec.Struct, frozen=True):
    holder: str
    target: str
    resisted: bool


class Probe(Ruleset):
    id = "probe"
    title = "Probe (tests only)"
    version = "0"
    Options = ProbeOptions
    commands = (Grab,)
    events = (Grabbed,)
    geometry = geometry_hex(position_required=False)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"grabs": 0}

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        assert isinstance(command, Grab)
        who = combatant_or_error(state, command.combatant)
        target = combatant_or_error(state, command.target, "target")
        if who.get("group") and who["group"] == target.get("group"):
            raise RuleError(f"{who['name']} is already grappling {target['name']}")
        return [
            ActionDeclared(command.combatant, "grab", [command.target]),
            ReactionRequested(
                "",
                "probe_defence",
                command.target,
                asked_of(state, command.target),
                ["resist", "yield"],
                "resist",
                [],
                {"holder": command.combatant, "target": command.target},
            ),
        ]

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        holder, target = pending["resume"]["holder"], pending["resume"]["target"]
        if answer.choice == "yield" and "no_yield" in state["combatants"][target]["stats"]:
            raise RuleError(f"{state['combatants'][target]['name']} is too proud to yield")
        if holder not in state["combatants"] or target not in state["combatants"]:
            return [ReactionCancelled(pending["id"], "a fighter is gone")]
        out: list[msgspec.Struct] = []
        if answer.choice == "resist":
            roll = dice.roll(1, 6, "escape", target)
            escape_on = state["options"]["escape_on"]
            escaped = roll.sum >= escape_on
            out.append(
                roll.event(
                    modifiers=[Modifier(0, "no modifiers")],
                    target=escape_on,
                    outcome="escapes" if escaped else "held",
                )
            )
            if escaped:
                return [*out, Grabbed(holder, target, True)]
        at = state["combatants"][target].get("position")
        return [
            *out,
            Grabbed(holder, target, answer.choice == "resist"),
            CloseCombatJoined(f"g-{holder}", [holder, target], at, False),
            PinApplied(holder, target, state["turn"]),
        ]

    def on_common(self, state: dict[str, Any], command: Command, events: list[Any], dice: Dice) -> list[Any]:
        if isinstance(command, StartTurn):
            turn = events[0].turn
            return [*events, *(PinHeld(p["holder"], p["pinned"], turn) for p in state["pins"])]
        return events

    def evolve(self, rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        if event.type == "Grabbed":
            return {**rules_state, "grabs": rules_state["grabs"] + 1}
        return rules_state

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        return ["probe.grab"]

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        if event.type == "Grabbed":
            names = state_before["combatants"]
            return f"{names[event.data['holder']]['name']} grabs {names[event.data['target']]['name']}."
        return None


ruleset = Probe()
