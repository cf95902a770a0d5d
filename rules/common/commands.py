"""Common command types (API.md "Commands"), tagged by their bare verb."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from rules.interface import Command


class AddCombatant(Command, tag="add_combatant"):
    """Add a combatant (GM): {id, name, side, position, facing, posture, stats, items}; the ruleset checks its stats."""

    combatant: dict[str, Any]


class AddCombatants(Command, tag="add_combatants"):
    """Add several combatants at once (GM), in order: all of them join, one CombatantJoined each as
    add_combatant appends, or none does (the first refused one is named by its index)."""

    combatants: Annotated[
        list[dict[str, Any]],
        msgspec.Meta(
            min_length=1,
            description="The combatants to add, each as add_combatant's combatant, in the order they join.",
        ),
    ]


class RemoveCombatant(Command, tag="remove_combatant"):
    """Take a combatant out of the encounter (GM)."""

    combatant: str


class SetStandingOrders(Command, tag="set_standing_orders"):
    """Answer a combatant's future reactions in advance: reaction kind -> choice."""

    combatant: str
    reactions: dict[str, str]


class StartTurn(Command, tag="start_turn"):
    """Begin the next turn (GM); `turn` checks which one you mean."""

    turn: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "The number of the turn to start, after the current one (a check that you mean it); null: the next."
            )
        ),
    ] = None


class StartPhase(Command, tag="start_phase"):
    """Begin a phase of the turn (GM); the ruleset names its phases and may refuse one out of order:
    `force: true` overrides that."""

    phase: str
    force: bool = False


class SetInitiative(Command, tag="set_initiative"):
    """Set the order in which combatants act (GM)."""

    order: Annotated[list[str], msgspec.Meta(description="The combatant ids, first to act first.")]


class Move(Command, tag="move"):
    """Put a combatant at a position (GM; checks no movement rule unless the ruleset opens it to players)."""

    combatant: str
    to: list[int]
    facing: int | None = None


class RollDice(Command, tag="roll"):
    """Roll dice, e.g. 3d6 or 2d10+4, for a purpose the log names."""

    expression: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The dice to roll: NdS with an optional +/- modifier and keep-highest/lowest, e.g. 3d6, d100, 2d6+1, "
                "4d6kh3."
            )
        ),
    ]
    purpose: Annotated[
        str, msgspec.Meta(description='What the roll is for, as the log says it (e.g. "spot the ambush").')
    ] = ""
    combatant: str | None = None
    hidden: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "GM only (a player's hidden roll is refused): roll behind the screen. The chain holds only a commitment to the faces (from the encounter's "
                "hidden seed); the GM reads them at GET /encounters/{id}/hidden-rolls, and reveal_roll or close shows "
                "them to everyone."
            )
        ),
    ] = False


class Ask(Command, tag="ask"):
    """Ask someone a question with fixed choices (GM): a reaction of kind `kind`."""

    kind: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The question's kind, a name of yours (e.g. parry_or_dodge): standing orders answer by it."
            )
        ),
    ]
    options: Annotated[list[str], msgspec.Meta(description="The answers allowed.")]
    default: Annotated[
        str,
        msgspec.Meta(
            description=("The answer given when nobody answers in time (reaction_timeout_s), one of options.")
        ),
    ]
    combatant: Annotated[
        str | None,
        msgspec.Meta(description=("The id of the combatant asked (its seat answers); null: the GM.")),
    ] = None
    question: Annotated[
        str, msgspec.Meta(description='The question as the one asked reads it (e.g. "parry or dodge?").')
    ] = ""


class Respond(Command, tag="respond"):
    """The answer to a pending reaction; any further fields reach the ruleset as `params`."""

    reaction: str
    choice: str
    params: dict[str, Any] = {}


class Note(Command, tag="note"):
    """Post a note to the log."""

    text: Annotated[str, msgspec.Meta(description="The note, as the log shows it.")]


class Ruling(Command, tag="ruling"):
    """A GM ruling in words, with optional `overrides` of the state (JSON merge patch)."""

    text: Annotated[str, msgspec.Meta(description="The ruling in words, as the log shows it.")]
    overrides: Annotated[
        dict[str, Any],
        msgspec.Meta(
            description=(
                "A JSON merge patch (RFC 7386) of the state: combatants.<id>.{stats, posture, position, facing, "
                'conditions, items} and the ruleset\'s overridable paths, e.g. {"combatants": {"troll": {"posture": '
                '"prone"}}}; anything else is refused (422 naming the paths allowed).'
            )
        ),
    ] = {}


class SetOptions(Command, tag="set_options"):
    """Change options (GM) from now on."""

    options: dict[str, Any]


class Void(Command, tag="void"):
    """Void an earlier event (`seq`) or command (`target_command_id`) with a reason (GM)."""

    reason: str
    seq: Annotated[
        int | None,
        msgspec.Meta(
            description=("The seq of the event to void (give this or target_command_id, not both).")
        ),
    ] = None
    target_command_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The command_id of an earlier command, to void every event it appended (give this or seq, not both)."
            )
        ),
    ] = None


class RevealRoll(Command, tag="reveal_roll"):
    """Show everyone the faces of a hidden roll (GM), with the salt they were committed with."""

    seq: Annotated[int, msgspec.Meta(description="The seq of the hidden roll's HiddenRollMade event.")]


class RotateSeed(Command, tag="rotate_seed"):
    """Reveal the dice seed and commit to a new one (GM or player: anyone may ask for a fresh seed)."""


class Close(Command, tag="close"):
    """End the encounter (GM); the seed is revealed."""

    reason: Annotated[str, msgspec.Meta(description="Why it ends, for the log.")] = ""


COMMON_COMMANDS: tuple[type[Command], ...] = (
    AddCombatant,
    AddCombatants,
    RemoveCombatant,
    SetStandingOrders,
    StartTurn,
    StartPhase,
    SetInitiative,
    Move,
    RollDice,
    Ask,
    Respond,
    Note,
    Ruling,
    SetOptions,
    Void,
    RevealRoll,
    RotateSeed,
    Close,
)

# The common commands only the GM may send (rules/pipeline.py refuses them to players with 403); the
# plain `move` too, unless the ruleset sets `players_may_move`.
COMMON_GM_ONLY: frozenset[str] = frozenset(
    cls.__struct_config__.tag
    for cls in (
        AddCombatant,
        AddCombatants,
        RemoveCombatant,
        StartTurn,
        StartPhase,
        SetInitiative,
        Ask,
        Ruling,
        SetOptions,
        Void,
        RevealRoll,
        Close,
    )
)
