"""The `gurps` ruleset: GURPS 4th edition close combat (spec rules/gurps.md, seed 003 "Close Combat").

Modules, one idea each: `success_rolls` (3d6, margins, Quick Contests), `hexes` (geometry),
`state` (evolve), `hex_sharing` (who shares which half), `maneuvers`, `entering`, `leaving`,
`evading`, `weapons`, `attacks`, `defence`, `readying`, `shields`, `adjacent`, `teamwork`,
`grappling`, `describe`, `legal`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatLeft, TurnStarted, Wounded
from events.dice import Dice
from events.envelope import Event
from rules.common import commands as common
from rules.gurps import acting, playing
from rules.gurps import commands as cmds
from rules.gurps.adjacent import decide_declare
from rules.gurps.attacks import decide_attack, decide_grapple
from rules.gurps.combatant_stats import completed_combatant
from rules.gurps.defence import resume_defence
from rules.gurps.describe import describe_event
from rules.gurps.entering import decide_move
from rules.gurps.evading import decide_evade, resume_evade
from rules.gurps.events import GURPS_EVENTS
from rules.gurps.grappling import (
    decide_break_free,
    decide_gm_grapple,
    decide_pin,
    decide_takedown,
    resume_fall_hex,
    resume_gm_ruling,
)
from rules.gurps.hex_sharing import shared_hex
from rules.gurps.legal import legal_actions
from rules.gurps.maneuvers import choose, turn_start_extras
from rules.gurps.options import GurpsOptions, option
from rules.gurps.readying import decide_ready
from rules.gurps.shields import decide_drop_shield
from rules.gurps.state import evolve_rules, initial_rules_state
from rules.hexes import as_hex, label
from rules.interface import Answer, BadCommand, Command, Ruleset, combatant_or_error, geometry_hex


class Gurps(Ruleset):
    id = "gurps"
    title = "GURPS close combat"
    version = "1"
    Options = GurpsOptions
    commands = cmds.GURPS_COMMANDS
    events = GURPS_EVENTS
    phases = playing.PHASES
    stats = playing.STATS
    reactions = playing.REACTIONS
    first_turn = playing.FIRST_TURN
    geometry = geometry_hex()

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules_state()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return completed_combatant(combatant)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        for role in ("combatant", "target"):
            cid = getattr(command, role, None)
            if isinstance(cid, str):
                combatant_or_error(state, cid, role)
        for h in getattr(command, "helpers", []) or []:
            combatant_or_error(state, h, "helpers")
        match command:
            case cmds.ChooseManeuver():
                return choose(state, command.combatant, command.maneuver)
            case cmds.GurpsMove():
                return decide_move(state, command)
            case cmds.Evade():
                return decide_evade(state, command, dice)
            case cmds.CloseCombatAttack():
                return decide_attack(state, command, dice)
            case cmds.ReadyItem():
                return decide_ready(state, command, dice)
            case cmds.DropShield():
                return decide_drop_shield(state, command, dice)
            case cmds.DeclareCloseCombat():
                return decide_declare(state, command)
            case cmds.Grapple():
                if option(state, "base_grapple_mode") == "gm":
                    return decide_gm_grapple(state, command, dice)
                return decide_grapple(state, command, dice)
            case cmds.Takedown():
                return decide_takedown(state, command, dice)
            case cmds.Pin():
                return decide_pin(state, command, dice)
            case cmds.BreakFree():
                return decide_break_free(state, command, dice)
            case cmds.RecordInjury():
                if command.amount < 0:
                    raise BadCommand("amount cannot be negative", "amount")
                return [Wounded(command.target, command.amount, command.source)]
        return super().decide(state, command, dice)

    def on_common(self, state: dict[str, Any], command: Command, events: list[msgspec.Struct],
                  dice: Dice) -> list[msgspec.Struct]:
        if isinstance(command, common.StartTurn):
            at = next((i for i, e in enumerate(events) if isinstance(e, TurnStarted)), None)
            if at is None:
                return events
            before, after = turn_start_extras(state, events[at].turn)
            return [*events[:at], *before, events[at], *after, *events[at + 1:]]
        if isinstance(command, common.Move):
            # The common move is a GM's position correction: it takes the figure out of his shared hex.
            c = state["combatants"].get(command.combatant)
            h = shared_hex(state, command.combatant) if c else None
            if c and h and label(command.to) != label(h["at"]):
                gid = c.get("group") or f"cc:{label(as_hex(h['at']))}"
                return [*events, CloseCombatLeft(gid, command.combatant, "moved")]
        return events

    def resume(self, state: dict[str, Any], pending: dict[str, Any], answer: Answer,
               dice: Dice) -> list[msgspec.Struct]:
        kind = pending.get("kind")
        if kind == "evade_stop":
            return resume_evade(state, pending, answer, dice)
        if kind == "defence":
            return resume_defence(state, pending, answer, dice)
        if kind == "fall_hex":
            return resume_fall_hex(state, pending, answer)
        if kind == "gm_ruling":
            return resume_gm_ruling(state, pending, answer)
        return []

    def evolve(self, rules_state: dict[str, Any], event: Event) -> dict[str, Any]:
        return evolve_rules(rules_state, event)

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        return legal_actions(state, combatant)

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return acting.acting_now(state)

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        return acting.next_slot(state, combatant)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe_event(state_before, event.type, event.data)

    def actors(self, state: dict[str, Any], command: Command) -> list[str]:
        """A takedown's or pin's helpers act too: each spends his own next turn (4.9 DECISION)."""
        helpers = list(getattr(command, "helpers", []))
        return [*super().actors(state, command), *helpers]

    gm_commands = frozenset({cmds.RecordInjury.__struct_config__.tag})


ruleset = Gurps()
