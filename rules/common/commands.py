"""Common command types (API.md "Commands"), tagged by their bare verb."""

from __future__ import annotations

from typing import Any

from rules.interface import Command


class AddCombatant(Command, tag="add_combatant"):
    combatant: dict[str, Any]


class RemoveCombatant(Command, tag="remove_combatant"):
    combatant: str


class SetStandingOrders(Command, tag="set_standing_orders"):
    combatant: str
    reactions: dict[str, str]


class StartTurn(Command, tag="start_turn"):
    turn: int | None = None


class StartPhase(Command, tag="start_phase"):
    phase: str


class SetInitiative(Command, tag="set_initiative"):
    order: list[str]


class Move(Command, tag="move"):
    combatant: str
    to: list[int]
    facing: int | None = None


class RollDice(Command, tag="roll"):
    expression: str
    purpose: str = ""
    combatant: str | None = None


class Ask(Command, tag="ask"):
    kind: str
    options: list[str]
    default: str
    combatant: str | None = None
    question: str = ""


class Respond(Command, tag="respond"):
    """The answer to a pending reaction; any further fields reach the ruleset as `params`."""

    reaction: str
    choice: str
    params: dict[str, Any] = {}


class Note(Command, tag="note"):
    text: str


class Ruling(Command, tag="ruling"):
    text: str
    overrides: dict[str, Any] = {}


class SetOptions(Command, tag="set_options"):
    options: dict[str, Any]


class Void(Command, tag="void"):
    reason: str
    seq: int | None = None
    target_command_id: str | None = None


class RotateSeed(Command, tag="rotate_seed"):
    pass


class Close(Command, tag="close"):
    reason: str = ""


COMMON_COMMANDS: tuple[type[Command], ...] = (
    AddCombatant, RemoveCombatant, SetStandingOrders, StartTurn, StartPhase, SetInitiative, Move,
    RollDice, Ask, Respond, Note, Ruling, SetOptions, Void, RotateSeed, Close,
)
