"""The gurps commands (spec section 4, the command table). Movement paths list the hexes entered,
in order, not the starting hex; GM/BASE modifiers travel as `modifiers: [{value, reason}]`."""

from __future__ import annotations

from events.dice import Modifier
from rules.interface import Command


class ChooseManeuver(Command, tag="gurps.choose_maneuver"):
    combatant: str
    maneuver: str


class GurpsMove(Command, tag="gurps.move"):
    combatant: str
    path: list[list[int]]
    facing: int | None = None
    # Spec section 4.3 / 6 #15: turning, sidestepping and backing cost what the player states.
    extra_cost: int = 0


class Evade(Command, tag="gurps.evade"):
    combatant: str
    target: str
    path: list[list[int]]
    over: bool = False
    modifiers: list[Modifier] = []


class CloseCombatAttack(Command, tag="gurps.close_combat_attack"):
    combatant: str
    target: str
    weapon: str
    modifiers: list[Modifier] = []


class ReadyItem(Command, tag="gurps.ready_item"):
    combatant: str
    item: str
    fast_draw: bool = False


class DropShield(Command, tag="gurps.drop_shield"):
    combatant: str


class DeclareCloseCombat(Command, tag="gurps.declare_close_combat"):
    combatant: str
    target: str


class Grapple(Command, tag="gurps.grapple"):
    combatant: str
    target: str
    modifiers: list[Modifier] = []


class Takedown(Command, tag="gurps.takedown"):
    combatant: str
    target: str
    helpers: list[str] = []
    to: list[int] | None = None
    modifiers: list[Modifier] = []


class Pin(Command, tag="gurps.pin"):
    combatant: str
    target: str
    helpers: list[str] = []
    modifiers: list[Modifier] = []


class BreakFree(Command, tag="gurps.break_free"):
    combatant: str
    target: str
    modifiers: list[Modifier] = []


class RecordInjury(Command, tag="gurps.record_injury"):
    target: str
    amount: int
    source: str = ""


GURPS_COMMANDS: tuple[type[Command], ...] = (
    ChooseManeuver, GurpsMove, Evade, CloseCombatAttack, ReadyItem, DropShield, DeclareCloseCombat,
    Grapple, Takedown, Pin, BreakFree, RecordInjury,
)
