"""The `gurps` ruleset: GURPS 4th edition close combat (spec rules/gurps.md, seed 003 "Close Combat").

Wiring only: the table of deciders, of reactions' resumptions and the hooks on common commands. The
rules live one a module: `close_combat` (who is in close combat: occupancy), `entering`, `leaving`,
`evading`, `stepping_out`, `attacks`, `defence`, `parry`, `readying`, `shields`, `adjacent`,
`teamwork`, `grappling`, `injuries`, `maneuvers`; `success_rolls` (3d6, Quick Contests), `state`
(the fold), `describe` (the log), `legal`, `acting`, `playing` (the guide), `tables` (the seed's tables).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.dice import Dice
from rules.common import commands as common
from rules.gurps import acting, playing, shapes
from rules.gurps import commands as cmds
from rules.gurps.adjacent import decide_declare
from rules.gurps.attacks import decide_attack
from rules.gurps.close_combat import after_common
from rules.gurps.combatant_stats import completed_combatant, subjects_or_error
from rules.gurps.defence import resume_defence
from rules.gurps.describe import describe_event, is_aside
from rules.gurps.entering import decide_move
from rules.gurps.evading import decide_evade, resume_evade
from rules.gurps.events import GURPS_EVENTS
from rules.gurps.grappling import (
    decide_break_free,
    decide_grapple_command,
    decide_pin,
    decide_takedown,
    resume_fall_hex,
    resume_gm_ruling,
)
from rules.gurps.grappling import holds as grapple_holds
from rules.gurps.injuries import decide_record_injury
from rules.gurps.legal import legal_actions
from rules.gurps.maneuvers import decide_choose, with_turn_start
from rules.gurps.offers import offers
from rules.gurps.options import GurpsOptions
from rules.gurps.parry import refused_defence
from rules.gurps.readying import decide_ready
from rules.gurps.shields import decide_drop_shield
from rules.gurps.state import evolve_rules, initial_rules_state
from rules.gurps.stepping_out import decide_step_out_attack
from rules.interface import Answer, Command, Ruleset, geometry_hex

DECIDERS: dict[type[Command], Callable[[dict[str, Any], Any, Dice], list[msgspec.Struct]]] = {
    cmds.ChooseManeuver: decide_choose,
    cmds.GurpsMove: decide_move,
    cmds.Evade: decide_evade,
    cmds.CloseCombatAttack: decide_attack,
    cmds.StepOutAttack: decide_step_out_attack,
    cmds.ReadyItem: decide_ready,
    cmds.DropShield: decide_drop_shield,
    cmds.DeclareCloseCombat: decide_declare,
    cmds.Grapple: decide_grapple_command,
    cmds.Takedown: decide_takedown,
    cmds.Pin: decide_pin,
    cmds.BreakFree: decide_break_free,
    cmds.RecordInjury: decide_record_injury,
}

RESUMERS: dict[str, Callable[[dict[str, Any], dict[str, Any], Answer, Dice], list[msgspec.Struct]]] = {
    "evade_stop": resume_evade,
    "defence": resume_defence,
    "fall_hex": lambda state, pending, answer, dice: resume_fall_hex(state, pending, answer),
    "gm_ruling": lambda state, pending, answer, dice: resume_gm_ruling(state, pending, answer),
}


class Gurps(Ruleset, guide=playing, shapes=shapes):
    id = "gurps"
    title = "GURPS close combat"
    # 2: close combat follows occupancy (issue 17); parry and unarmed attacks need an empty hand and
    # weapons a ready state; the step-out attack; option crowded_evade.
    # 3: a failed retreating defence against a grapple pulls the figure back into the hex the retreat
    # left (Moved {reason: "held"}) before Grappled.
    # 4: gurps.ready_item is legal only with an item to ready (a figure with none was named as acting,
    # told "your turn", and offered nothing).
    # 5: a kneeling or lying defender's dodge, parry or block takes the posture penalty (OPTION
    # defence_posture_penalty, the Basic Set's -2 / -3).
    version = "5"
    Options = GurpsOptions
    commands = cmds.GURPS_COMMANDS
    events = GURPS_EVENTS
    deciders = DECIDERS
    geometry = geometry_hex()
    gm_commands = frozenset({cmds.RecordInjury.__struct_config__.tag})

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules_state()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return completed_combatant(combatant)

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        decider = self.decider(command)
        subjects_or_error(state, command)
        return decider(state, command, dice)

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        if isinstance(command, common.StartTurn):
            return with_turn_start(state, events)
        return after_common(state, command, events)

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        resumer = RESUMERS.get(str(pending.get("kind")))
        return resumer(state, pending, answer, dice) if resumer else []

    def refused_choice(self, state: dict[str, Any], pending: dict[str, Any], choice: str) -> str | None:
        return refused_defence(state, pending, choice)

    evolve = staticmethod(evolve_rules)
    legal_actions = staticmethod(legal_actions)

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        return offers(self, state, combatant)

    acting_now = staticmethod(acting.acting_now)
    next_slot = staticmethod(acting.next_slot)
    holds = staticmethod(grapple_holds)

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        return describe_event(state_before, event.type, event.data)

    def aside(self, state_before: dict[str, Any], event: Any) -> bool:
        return is_aside(state_before, event.type, event.data)

    def actors(self, state: dict[str, Any], command: Command) -> list[str]:
        """A takedown's or pin's helpers act too: each spends his own next turn (4.9 DECISION)."""
        helpers = list(getattr(command, "helpers", []))
        return [*super().actors(state, command), *helpers]


ruleset = Gurps()
