"""The ruleset plug-in interface (DESIGN.md "Architecture: the decider pattern").

A ruleset knows no storage, HTTP or clock. It sees the encounter state (a plain JSON-able dict, see
`rules/state.py` for its shape), typed commands, and a `Dice` source; it returns event Structs
or raises `RuleError`. `evolve` keeps the ruleset's own part of the state (`state["rules"]`) and must
not mutate its input: copy what you change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar

import msgspec

from events.dice import Dice
from rules.acting import reactions_acting
from rules.offers import default_offers


class RuleError(Exception):
    """The rules forbid this now (422 `rule_violation`); the message is a sentence a player understands."""

    def __init__(self, message: str, details: dict[str, Any] | None = None, code: str = "rule_violation"):
        super().__init__(message)
        self.message = message
        self.details = details or {}
        self.code = code


class SubjectGone(Exception):
    """An event names a combatant (or other subject) a `void` removed from the encounter: a fold
    raises it from an explicit check, and the common fold records it in `state["inconsistencies"]`
    and leaves the state as it was (DESIGN.md "Voids"). Any other error in a fold is a bug."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def require_present(present: Any, subject: Any, what: str = "combatant") -> None:
    """Raise `SubjectGone` unless `subject` is in `present` (a dict or list of ids)."""
    if subject not in present:
        raise SubjectGone(f"{what} {subject!r} is not in the encounter")


class BadCommand(Exception):
    """The command's fields do not make sense (400 `bad_request`), naming the field."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class Forbidden(Exception):
    """The actor's role may not send this command (403 `forbidden`)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    """Fields every command may carry (API.md "Commands"); subclasses set `tag="<ruleset>.<verb>"`."""

    command_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Your id for this command (1-64 of A-Z a-z 0-9 _ . : -): resending it with the same body answers 200 with "
                "the original events instead of acting twice."
            )
        ),
    ] = None
    entropy: Annotated[
        str,
        msgspec.Meta(
            description=(
                "Your contribution to the dice of this command (mixed into the seed; up to 128 characters)."
            )
        ),
    ] = ""
    expected_seq: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Act only if the encounter is at this seq (else 409 seq_conflict): no blind overwrites."
            )
        ),
    ] = None
    expected_commitment: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Act only if the dice seed's commitment is still this one (else 409 commitment_moved, nothing "
                "rolled): the seed your dice will be drawn from is the one you saw."
            )
        ),
    ] = None
    dice: Annotated[
        list[list[int]] | None,
        msgspec.Meta(
            description=(
                "With physical dice (dice: manual or mixed): the faces rolled, one list per roll in the order asked."
            )
        ),
    ] = None
    # Who sent it (`gm`, `seat:<id>`, `system`): set by the engine before decide, never by the client.
    actor: str = ""


class Answer(msgspec.Struct, frozen=True):
    """A reaction's answer as `resume` sees it: the choice, its extra fields, and who gave it."""

    choice: str
    params: dict[str, Any]
    by: str


def geometry_hex(position_required: bool = True) -> dict[str, Any]:
    """Axial hexes, facing 0-5 (DESIGN.md "Units")."""
    return {"kind": "hex_axial", "unit": "hex", "facing": "hex6", "position_required": position_required}


def geometry_plane(position_required: bool = True) -> dict[str, Any]:
    """Table-top positions in hundredths of an inch, facing in degrees (DESIGN.md "Units")."""
    return {"kind": "plane", "unit": "0.01in", "facing": "degrees", "position_required": position_required}


def list_of_objects(properties: dict[str, dict[str, Any]], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON schema of a stat that is a list of objects with these fields (STAT_TYPES: weapons ...)."""
    item: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        item["required"] = list(required)
    return {"type": "array", "items": item}


class FirstTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A worked first turn for the ruleset's guide: an encounter, its combatants, one player's seat and
    the commands of turn 1, each `(by, note, command)` with `by` "gm" or "player" (server/guides/guide_turns.py
    makes the requests of it; tests/test_guides.py plays them)."""

    name: str
    options: dict[str, Any] = {}
    combatants: tuple[dict[str, Any], ...]
    player: str = "Alice"
    plays: tuple[str, ...]
    commands: tuple[tuple[str, str, dict[str, Any]], ...]


class Ruleset:
    """Base class of every ruleset. Override what your rules need; the defaults do nothing special.

    `class Mine(Ruleset, guide=playing, shapes=shapes)` takes the guide's `phases`, `stats`, `reactions` and `first_turn`
    from the module's PHASES, STATS, REACTIONS and FIRST_TURN (those it has; REQUIRED_STATS, COMPLETED_STATS,
    STAT_TYPES, COMPLETED_STAT_TYPES, ITEM_FIELDS and ITEM_TYPES too), so that wiring names the module
    once instead of copying each; `deciders` is the table `decide` looks a command's type up in."""

    def __init_subclass__(cls, guide: Any = None, shapes: Any = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if shapes is not None:  # the ruleset's shapes.py (rules/json_shapes.py)
            cls.rules_shape = getattr(shapes, "RULES_STATE", cls.rules_shape)
            cls.resume_shape = getattr(shapes, "RESUME", cls.resume_shape)
            cls.event_field_shapes = getattr(shapes, "EVENT_FIELDS", cls.event_field_shapes)
        if guide is not None:
            cls.phases = getattr(guide, "PHASES", cls.phases)
            cls.stats = getattr(guide, "STATS", cls.stats)
            cls.required_stats = getattr(guide, "REQUIRED_STATS", cls.required_stats)
            cls.completed_stats = getattr(guide, "COMPLETED_STATS", cls.completed_stats)
            cls.stat_types = getattr(guide, "STAT_TYPES", cls.stat_types)
            cls.completed_stat_types = getattr(guide, "COMPLETED_STAT_TYPES", cls.completed_stat_types)
            cls.item_fields = getattr(guide, "ITEM_FIELDS", cls.item_fields)
            cls.item_types = getattr(guide, "ITEM_TYPES", cls.item_types)
            cls.reactions = getattr(guide, "REACTIONS", cls.reactions)
            cls.first_turn = getattr(guide, "FIRST_TURN", cls.first_turn)

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    Options: ClassVar[type[msgspec.Struct]]
    commands: ClassVar[tuple[type[Command], ...]] = ()
    events: ClassVar[tuple[type[msgspec.Struct], ...]] = ()
    geometry: ClassVar[dict[str, Any]] = geometry_hex(False)
    # State paths (dotted, under "rules.") a GM ruling may override, besides the common ones.
    overridable: ClassVar[tuple[str, ...]] = ()
    # Command types only the GM may send (the engine answers anyone else with 403).
    gm_commands: ClassVar[frozenset[str]] = frozenset()
    # Whether players may send the common `move` for their own combatants (API.md: GM only, except
    # where a ruleset opens it; its on_common still judges each move).
    players_may_move: ClassVar[bool] = False
    # Event types whose sentences are bookkeeping ("has spent the action", "has moved 2 hexes") the
    # action's own sentence already says: `aside` marks them, and forum exports leave them out.
    bookkeeping: ClassVar[frozenset[str]] = frozenset()
    # (event type, `why`) of bookkeeping that is a command's only sentence (a pass): not an aside.
    said_only_here: ClassVar[frozenset[tuple[str, str]]] = frozenset()
    # Stats the rules keep changing, each with the key of `state["rules"]` holding {combatant: value}:
    # the common fold mirrors them into `combatants.<id>.stats`, so clients read one, current value.
    live_stats: ClassVar[dict[str, str]] = {}
    # What a player's guide says (server/guides/guide.py) beyond the commands, options and events: the phases
    # `start_phase` takes, in their order; each combatant stat `add_combatant` reads, with its meaning;
    # each reaction kind with what asks it and its choices {choice: meaning}.
    phases: ClassVar[tuple[str, ...]] = ()
    stats: ClassVar[dict[str, str]] = {}
    # Of those, the ones add_combatant refuses a combatant without, and the ones every combatant has once
    # `validate_combatant` completed it (its defaults filled in): /openapi.json requires them, so that a
    # client tells one ruleset's stats from another's.
    required_stats: ClassVar[tuple[str, ...]] = ()
    completed_stats: ClassVar[tuple[str, ...]] = ()
    # A stat's JSON schema type, where the ruleset's check holds it to one (absent: any value); and where
    # completing a combatant changes a stat's type (ap-grapple's strength 18/50 becomes 18), its completed type.
    stat_types: ClassVar[dict[str, dict[str, Any]]] = {}
    completed_stat_types: ClassVar[dict[str, dict[str, Any]]] = {}
    # Each field of `combatant.items[]` the rules read, with its meaning (empty: the ruleset reads none but id).
    item_fields: ClassVar[dict[str, str]] = {}
    # An item field's JSON schema type, where the ruleset's check holds it to one (absent: any value).
    item_types: ClassVar[dict[str, dict[str, Any]]] = {}
    reactions: ClassVar[dict[str, dict[str, Any]]] = {}
    first_turn: ClassVar[FirstTurn | None] = None
    # The JSON schemas of the ruleset's part of the state and of its reactions' `resume`, from its
    # shapes.py (`class Mine(Ruleset, shapes=shapes)`); None: the documents leave that object open.
    rules_shape: ClassVar[dict[str, Any] | None] = None
    resume_shape: ClassVar[dict[str, Any] | None] = None
    # Its events' fields whose Struct type says only "objects" (list[dict]): event type -> field -> schema.
    event_field_shapes: ClassVar[dict[str, dict[str, dict[str, Any]]]] = {}
    # Each of the ruleset's command types with its decider `(state, command, dice) -> events`.
    deciders: ClassVar[Mapping[type[Command], Callable[..., list[msgspec.Struct]]]] = {}

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        """The ruleset's own part of the state before any event."""
        return {}

    def validate_combatant(self, state: dict[str, Any], combatant: dict[str, Any]) -> dict[str, Any]:
        """Check (raise RuleError/BadCommand) and complete a combatant about to join."""
        return combatant

    def decide(self, state: dict[str, Any], command: Command, dice: Dice) -> list[msgspec.Struct]:
        """The events of one of this ruleset's commands, or a RuleError. Default: its decider in `deciders`."""
        return self.decider(command)(state, command, dice)

    def decider(self, command: Command) -> Callable[..., list[msgspec.Struct]]:
        """The command's decider in `deciders`; a command without one is 400 (`unknown_command`)."""
        fn = self.deciders.get(type(command))
        if fn is None:
            raise unknown_command(self, command)
        return fn

    def on_common(
        self, state: dict[str, Any], command: Command, events: list[msgspec.Struct], dice: Dice
    ) -> list[msgspec.Struct]:
        """Extend or refuse a common command's events (e.g. add PinHeld at start_turn)."""
        return events

    def resume(
        self, state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
    ) -> list[msgspec.Struct]:
        """Continue a resolution after its reaction was answered; re-check, or ReactionCancelled."""
        return []

    def refused_choice(self, state: dict[str, Any], pending: dict[str, Any], choice: str) -> str | None:
        """Why `choice`, not among a reaction's options, is closed (the rule and the reason); None: say only
        which options are open."""
        return None

    def evolve(self, rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        """The ruleset's own state after `event` (an `events.envelope.Event`, common ones included)."""
        return rules_state

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        """Command types this combatant may send now."""
        return []

    def offers(self, state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
        """What `combatant` (or "gm", the GM's own steps) may send now, as offers ready to click
        (rules/offers.py): concrete variants none of which the rules refuse (dice aside). They must agree
        with `legal_actions`. Default: one offer per legal command, titled from its schema, no choices."""
        return default_offers(self, state, combatant, (*common_commands(), *self.commands))

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Who may or must act now and why: `[{combatant, asked_of, why, until, reaction, slot}]`, the shape
        in rules/acting.py (`slot`: what opened the entry, the same while it stays open). It must agree with `legal_actions`. Default: whoever a pending reaction asks."""
        return reactions_acting(state)

    def holds(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """The holds short of a pin its rules keep in `rules` (a GURPS grapple), for the views to show:
        `[{holder, held, hold, effect}]`, `hold` and `effect` in words. Default: none."""
        return []

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        """When this combatant, not acting now, will be at its slot, as a sentence (None: it acts now, or
        the ruleset cannot say)."""
        return None

    def describe(self, state_before: dict[str, Any], event: Any) -> str | None:
        """The log sentence for one of this ruleset's events (None: the engine's generic sentence)."""
        return None

    def aside(self, state_before: dict[str, Any], event: Any) -> bool:
        """Whether the event's log entry is bookkeeping another sentence already says (a forum export
        leaves it out; the log keeps it, marked `aside`). Default: its type is one of `bookkeeping`, unless
        (type, why) is one of `said_only_here`."""
        return (
            event.type in self.bookkeeping
            and (event.type, (event.data or {}).get("why")) not in self.said_only_here
        )

    def actors(self, state: dict[str, Any], command: Command) -> list[str]:
        """Combatants the command acts as, each of which a player's seat must control (403 otherwise;
        default: its `combatant`). A `target` it acts on is not one of them."""
        c = getattr(command, "combatant", None)
        return [c] if isinstance(c, str) else []


def common_commands() -> list[type[Command]]:
    """The engine's common command Structs (rules/common/commands.py: the tags without a ruleset's dot),
    found as subclasses here because rules.common imports this module."""
    out, todo = [], list(Command.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if "." not in str(cls.__struct_config__.tag):
            out.append(cls)
    return out


def combatant_or_error(state: dict[str, Any], combatant_id: str, role: str = "combatant") -> dict[str, Any]:
    """The combatant's state, or a RuleError naming the unknown id."""
    c = state["combatants"].get(combatant_id)
    if c is None:
        raise RuleError(f"there is no combatant {combatant_id!r} in this encounter", {role: combatant_id})
    return c


def command_type(command: Command) -> str:
    """The `type` tag of a command Struct (e.g. "tft.enter_hth", "start_turn")."""
    return type(command).__struct_config__.tag  # type: ignore[return-value]


def unknown_command(ruleset: Ruleset, command: Command) -> BadCommand:
    """The 400 for a command `ruleset` does not take (API.md: an unknown command is `bad_request`, in
    every ruleset). The registry's decoder refuses it before decide; this is the same answer after."""
    return BadCommand(f"{ruleset.title} has no command {command_type(command)}", "type")
