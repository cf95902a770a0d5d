"""The tft ruleset's commands (spec section 4); `combatant` acts, `target` is acted on."""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.interface import Command


class GivenModifier(msgspec.Struct, forbid_unknown_fields=True):
    """A base-TFT modifier the player states, recorded as given (4.7, 4.13)."""

    value: int
    reason: str


class EnterHth(Command, tag="tft.enter_hth"):
    combatant: str
    target: str
    condition: Literal["C1", "C2", "C3", "C4"] | None = None
    judo2_shift: Literal[-1, 0, 1] | None = None


class DiveForLegs(Command, tag="tft.dive_for_legs"):
    combatant: str
    target: str
    condition: Literal["C1", "C2", "C3", "C4"] | None = None
    judo2_shift: Literal[-1, 0, 1] | None = None


class JoinHth(Command, tag="tft.join_hth"):
    combatant: str
    target: str  # any member of the group to join


class HthAttack(Command, tag="tft.hth_attack"):
    combatant: str
    target: str
    weapon: str = "fist"  # fist, a ready HTH-usable item id, or an hth natural attack's name


class CastSpellInHth(Command, tag="tft.cast_spell_in_hth"):
    combatant: str
    spell: str = ""
    motion: bool = True
    modifiers: list[GivenModifier] = []


class DrawDagger(Command, tag="tft.draw_dagger"):
    combatant: str
    item: str | None = None


class DropShield(Command, tag="tft.drop_shield"):
    combatant: str
    item: str | None = None


class Disengage(Command, tag="tft.disengage"):
    combatant: str
    to: list[int]
    facing: int | None = None


class Pin(Command, tag="tft.pin"):
    combatant: str
    target: str


class BreakPin(Command, tag="tft.break_pin"):
    combatant: str


class ReleasePin(Command, tag="tft.release_pin"):
    combatant: str


class StrikeIntoHth(Command, tag="tft.strike_into_hth"):
    combatant: str
    target: str
    weapon: str = "fist"
    attack: Literal["melee", "thrown", "missile"] = "melee"
    modifiers: list[GivenModifier] = []


class MissileIntoHthFar(Command, tag="tft.missile_into_hth_far"):
    combatant: str
    target: str
    weapon: str
    modifiers: list[GivenModifier] = []


class ConsentHth(Command, tag="tft.consent_hth"):
    combatant: str  # the defender
    target: str  # the entrant allowed to try


class SetHthPreferences(Command, tag="tft.set_hth_preferences"):
    combatant: str
    use_judo1_defense: bool | None = None
    judo2_shift_defense: Literal[-1, 0, 1] | None = None
    entry_dagger: Literal["ask", "always", "never"] | None = None
    judo_throw: Literal["ask", "never"] | None = None
    hth_wish: Literal["stand", "fall"] | None = None
    take_down_dice: int | None = None


class Pass(Command, tag="tft.pass"):
    combatant: str


class TftMove(Command, tag="tft.move"):
    combatant: str
    path: list[list[int]]
    facing: int | None = None


class ProneUnarmedAttack(Command, tag="tft.prone_unarmed_attack"):
    combatant: str
    target: str


class Defend(Command, tag="tft.defend"):
    combatant: str


class SetBackToWall(Command, tag="tft.set_back_to_wall"):
    combatant: str
    back_to_wall: bool = True


TFT_COMMANDS: tuple[type[Command], ...] = (
    EnterHth, DiveForLegs, JoinHth, HthAttack, CastSpellInHth, DrawDagger, DropShield, Disengage, Pin,
    BreakPin, ReleasePin, StrikeIntoHth, MissileIntoHthFar, ConsentHth, SetHthPreferences, Pass, TftMove,
    ProneUnarmedAttack, Defend, SetBackToWall,
)
