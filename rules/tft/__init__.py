"""The `tft` ruleset: The Fantasy Trip, revised hand-to-hand (spec rules/tft.md, seed "Revised HTH Rules
in TFT"). Each module holds one idea: entering.py, joining.py, defense_table.py, dx_in_hth.py, pins.py ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from events.dice import Dice
from rules.common import commands as common
from rules.interface import Answer, Command, Ruleset, geometry_hex
from rules.tft import acting, offers, playing, shapes
from rules.tft import commands as c
from rules.tft.attacking import defend, hth_attack, prone_unarmed_attack
from rules.tft.attacking_the_fallen import attack_fallen
from rules.tft.combatant_check import validate
from rules.tft.describe import describe
from rules.tft.disengaging import disengage
from rules.tft.entering import dive_for_legs, enter_hth, resume_entry
from rules.tft.events import TFT_EVENTS
from rules.tft.getting_up import pick_up, stand_up
from rules.tft.hth_actions import cast_spell_in_hth, draw_dagger, drop_shield
from rules.tft.joining import join_hth
from rules.tft.legal import legal_now
from rules.tft.movement import refuse_plain_move, tft_move
from rules.tft.options import TftOptions
from rules.tft.passing import pass_action
from rules.tft.phase_start import with_action_phase
from rules.tft.pinned_condition import holder_removed
from rules.tft.pins import break_pin, pin, release_pin, resume_pin_ruling
from rules.tft.preferences import consent_hth, set_back_to_wall, set_hth_preferences
from rules.tft.state import evolve_rules, initial_rules_state
from rules.tft.strikes_into_hth import missile_into_hth_far, strike_into_hth
from rules.tft.turn_sequence import check_phase

DECIDERS: dict[type[Command], Callable[[dict[str, Any], Any, Dice], list[Any]]] = {
    c.EnterHth: enter_hth,
    c.DiveForLegs: dive_for_legs,
    c.JoinHth: join_hth,
    c.HthAttack: hth_attack,
    c.CastSpellInHth: cast_spell_in_hth,
    c.DrawDagger: draw_dagger,
    c.DropShield: drop_shield,
    c.Disengage: disengage,
    c.Pin: pin,
    c.BreakPin: break_pin,
    c.ReleasePin: release_pin,
    c.StrikeIntoHth: strike_into_hth,
    c.MissileIntoHthFar: missile_into_hth_far,
    c.ConsentHth: consent_hth,
    c.SetHthPreferences: set_hth_preferences,
    c.Pass: pass_action,
    c.TftMove: tft_move,
    c.ProneUnarmedAttack: prone_unarmed_attack,
    c.SetBackToWall: set_back_to_wall,
    c.Defend: defend,
    c.StandUp: stand_up,
    c.PickUp: pick_up,
    c.AttackFallen: attack_fallen,
}

# GM rulings sent as commands: only the GM may send them (`gm_commands`; players get 403).
GM_ONLY: tuple[type[Command], ...] = (c.SetBackToWall,)


class Tft(Ruleset, guide=playing, shapes=shapes):
    """The Fantasy Trip with Rick's revised hand-to-hand rules."""

    id = "tft"
    title = "The Fantasy Trip: revised hand-to-hand"
    # 2: issue 17 (weapon refusals are rules, phase sequence, pinned condition, prone entrant); 3: attack_fallen,
    # refusals 422; 4: issue 29 (a new turn starts in no phase: actions before the action phase are refused);
    # 5: issue 29 (Judo 2's defence against every unarmed attack, the cestus in HTH, Wounded says what armor stopped)
    version = "5"
    Options = TftOptions
    commands = c.TFT_COMMANDS
    events = TFT_EVENTS
    deciders = DECIDERS
    geometry = geometry_hex(position_required=True)
    overridable: ClassVar[tuple[str, ...]] = ()
    bookkeeping = frozenset({"ActionSpent", "TftMoveCounted"})
    said_only_here = frozenset({("ActionSpent", "pass")})  # "Simeth passes: no action this turn"

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_rules_state()

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        return validate(combatant)

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        if isinstance(command, common.Move):
            refuse_plain_move(state, command.combatant, command.to)
        if isinstance(command, common.RemoveCombatant):
            return events + holder_removed(state, command.combatant)
        if isinstance(command, common.StartPhase):
            check_phase(state, command.phase, command.force)
        if isinstance(command, common.StartPhase) and command.phase == "action":
            return with_action_phase(state, events, dice)
        return events

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        step = (pending.get("resume") or {}).get("step")
        if step in ("judo_throw", "entry_dagger"):
            return resume_entry(state, pending, answer, dice)
        if step == "pin_ruling":
            return resume_pin_ruling(state, pending, answer)
        return []

    evolve = staticmethod(evolve_rules)
    legal_actions = staticmethod(legal_now)

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        return offers.offers(self, state, combatant)

    acting_now = staticmethod(acting.acting_now)
    next_slot = staticmethod(acting.next_slot)
    describe = staticmethod(describe)

    gm_commands = frozenset(cls.__struct_config__.tag for cls in GM_ONLY)


ruleset = Tft()
