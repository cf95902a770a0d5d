"""The pure command pipeline: one command in, the events to append out, knowing no ruleset.

It gates commands while reactions wait, checks that a player controls the combatants a command
moves, runs the common commands' decide (API.md "Commands") or the ruleset's, answers reactions
from standing orders inside the same command, and turns event Structs into envelope payloads.
The server adds only what it must fetch or draw (`Context`) and the store.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Annotated, Any, NamedTuple

import msgspec

from events.canonical import FloatInEventData, check_integers_only
from events.common import (
    ActionDeclared,
    CombatantJoined,
    CombatantRemoved,
    DiceSeedRotated,
    EncounterClosed,
    EventVoided,
    InitiativeSet,
    Moved,
    NotePosted,
    OptionsChanged,
    PhaseStarted,
    ReactionAnswered,
    ReactionRequested,
    RulingMade,
    StandingOrdersSet,
    TurnStarted,
)
from events.dice import Dice
from events.dice_expressions import DEFAULT_LIMITS, BadExpression, RollLimits, parse, roll_expression
from events.envelope import Event, NewEvent
from rules.acting import asked_of
from rules.common import commands as c
from rules.common.options import resolve_options
from rules.dice_keys import dice_key, key_answer
from rules.hidden_rolls import hidden_roll, reveal_at_close, reveal_roll
from rules.interface import (
    Answer,
    BadCommand,
    Command,
    Forbidden,
    RuleError,
    Ruleset,
    combatant_or_error,
    command_type,
)
from rules.merge_patch import merge_patch
from rules.state import evolve

ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,64}\Z")  # \Z: "$" would let a trailing newline in
POSTURES = ("standing", "kneeling", "prone", "on_back", "on_stomach")
# A hidden roll and its reveal stay, too: voiding an unwelcome hidden roll before it is shown would be
# changing it after the fact.
UNVOIDABLE = (
    "EventVoided",
    "EncounterCreated",
    "DiceSeedRotated",
    "EncounterClosed",
    "HiddenRollMade",
    "HiddenRollRevealed",
    "HiddenSeedRevealed",
)
COMBATANT_OVERRIDABLE = {"stats", "posture", "position", "facing", "conditions", "items"}


class Context(msgspec.Struct, frozen=True):
    """What the server knows that a pure decide may need: who acts, and inputs drawn outside it."""

    stream: str
    actor: str  # gm | seat:<id> | system
    command_id: str
    current_seed: str | None = None  # hex, revealed by rotate_seed / close
    next_commitment: str | None = None  # the fresh seed's commitment, drawn by the server
    void_targets: list[tuple[int, str]] = []  # (seq, type) of what a void names, looked up by the server
    # The secret hidden seed (rules/hidden_rolls.py), given only to a hidden roll, reveal_roll and close.
    hidden_seed: bytes | None = None
    # The server's caps on a `roll` (tussle serve --max-dice/--max-sides).
    roll_limits: RollLimits = DEFAULT_LIMITS
    # The request that sent the command, as signed by whoever keyed its dice (keyed_by "discord": the
    # interaction Discord signed, docs/discord.md), kept in the declaration for every verifier to check.
    signed_request: dict[str, Any] | None = None


def _is_gm(ctx: Context) -> bool:
    return ctx.actor in ("gm", "system")


def _seat_of(ctx: Context) -> str | None:
    return ctx.actor[5:] if ctx.actor.startswith("seat:") else None


def controls(state: dict[str, Any], ctx: Context, combatant_id: str) -> bool:
    """Whether the actor may command this combatant (the GM always may)."""
    if _is_gm(ctx):
        return True
    return seat_controls(state, _seat_of(ctx) or "", combatant_id)


def seat_controls(state: dict[str, Any], seat_id: str, combatant_id: str) -> bool:
    """Whether a seat's player commands this combatant: the seat lists it, or it names the seat its
    controller; a revoked seat commands none."""
    seat = state["seats"].get(seat_id)
    if not seat or seat.get("revoked"):
        return False
    combatant = state["combatants"].get(combatant_id) or {}
    return combatant_id in seat["combatants"] or combatant.get("controller") == seat_id


def commanded_by(state: dict[str, Any], seat_id: str | None) -> list[str]:
    """The combatants a seat commands, in the state's order; every one for the GM (`seat_id` None)."""
    if seat_id is None:
        return list(state["combatants"])
    return [c for c in state["combatants"] if seat_controls(state, seat_id, c)]


def acting_as(cmd: Command) -> list[str]:
    """The combatants a common command acts as, whom the sender's seat must control: the `combatant` of
    roll, move and set_standing_orders (remove_combatant's and ask's are acted on, and those are the GM's)."""
    if isinstance(cmd, (c.RollDice, c.Move, c.SetStandingOrders)) and cmd.combatant is not None:
        return [cmd.combatant]
    return []


def _gm_only(ctx: Context, what: str) -> None:
    if not _is_gm(ctx):
        raise Forbidden(f"only the GM may {what}")


def _position(state: dict[str, Any], value: Any, field: str) -> Any:
    geometry = state["geometry"]
    if value is None:
        if geometry.get("position_required"):
            raise BadCommand(f"{field} is required in this ruleset ({geometry.get('kind')} positions)", field)
        return None
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        unit = (
            "[q, r] axial hex" if geometry.get("kind") == "hex_axial" else "[x, y] in hundredths of an inch"
        )
        raise BadCommand(f"{field} must be {unit} as two integers", field)
    return value


def _facing(state: dict[str, Any], value: Any, field: str) -> int | None:
    if value is None:
        return None
    limit = 6 if state["geometry"].get("facing") == "hex6" else 360
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        raise BadCommand(f"{field} must be an integer 0-{limit - 1}", field)
    return value


class NewCombatant(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[
        str, msgspec.Meta(description="The combatant's id (1-64 of A-Z a-z 0-9 _ . : -), unique here.")
    ]
    name: Annotated[str, msgspec.Meta(description="Its name, as the log writes it.")]
    side: Annotated[
        str, msgspec.Meta(description="The side it fights on: combatants of other sides are enemies.")
    ]
    controller: Annotated[
        str | None, msgspec.Meta(description="The seat that controls it (null: the GM).")
    ] = None
    stats: Annotated[
        dict[str, Any],
        msgspec.Meta(description=("Its numbers, as its ruleset names them (GET /rulesets/{id}: stats).")),
    ] = {}
    position: Annotated[
        Any,
        msgspec.Meta(
            description=(
                "Where it stands in the encounter's geometry ([q, r] hex, or [x, y] in 0.01 inch); null: off the map."
            )
        ),
    ] = None
    facing: Annotated[
        Any,
        msgspec.Meta(
            description=("Its facing: a hex direction 0-5, or degrees 0-359 on a table top; null: none.")
        ),
    ] = None
    posture: Annotated[str, msgspec.Meta(description="standing, kneeling, prone, on_back or on_stomach.")] = (
        "standing"
    )
    items: Annotated[
        list[dict[str, Any]],
        msgspec.Meta(description=("What it carries: each {id, name, kind, state, ...}.")),
    ] = []
    talents: Annotated[dict[str, Any], msgspec.Meta(description="Its talents or skills, name to level.")] = {}
    reactions: Annotated[
        dict[str, str],
        msgspec.Meta(description=("Standing orders: reaction kind to the choice given without asking.")),
    ] = {}


def add_combatant(state: dict[str, Any], cmd: c.AddCombatant, ruleset: Ruleset) -> list[Any]:
    try:
        nc = msgspec.convert(cmd.combatant, NewCombatant)
    except msgspec.ValidationError as exc:
        raise BadCommand(f"combatant: {exc}", "combatant") from None
    if not ID_PATTERN.match(nc.id):
        raise BadCommand("combatant.id must be 1-64 characters of letters, digits and _.:-", "combatant.id")
    if nc.id in state["combatants"]:
        raise RuleError(f"there is already a combatant {nc.id!r} ({state['combatants'][nc.id]['name']})")
    if nc.posture not in POSTURES:
        raise BadCommand(f"combatant.posture must be one of {', '.join(POSTURES)}", "combatant.posture")
    if nc.controller is not None and nc.controller not in state["seats"]:
        raise RuleError(f"there is no seat {nc.controller!r} to control {nc.name}")
    for i, item in enumerate(nc.items):
        if not isinstance(item.get("id"), str) or not item["id"]:
            raise BadCommand(f"combatant.items[{i}] needs an id", f"combatant.items[{i}].id")
    data = msgspec.to_builtins(nc)
    data["position"] = _position(state, nc.position, "combatant.position")
    data["facing"] = _facing(state, nc.facing, "combatant.facing")
    data = ruleset.validate_combatant(state, data)
    return [msgspec.convert(data, CombatantJoined)]


def _set_options(state: dict[str, Any], cmd: c.SetOptions, ruleset: Ruleset) -> list[Any]:
    merged = resolve_options(ruleset, {**state["options"], **cmd.options})
    changed = {k: merged[k] for k in cmd.options}
    return [OptionsChanged(changed)]


def _check_overridden(state: dict[str, Any], cid: str, cpatch: dict[str, Any], ruleset: Ruleset) -> None:
    """A ruling may overrule the rules but not break the shapes the rules read: the patched combatant must
    still be one add_combatant would take (a BadCommand names the field; the ruleset's RuleErrors, its
    judgements, are the GM's to overrule)."""
    field = f"overrides.combatants.{cid}"
    c = merge_patch(state["combatants"][cid], cpatch)
    if "stats" in cpatch and not isinstance(c.get("stats"), dict):
        raise BadCommand(f"{field}.stats must be an object", f"{field}.stats")
    if "posture" in cpatch and c.get("posture") not in POSTURES:
        raise BadCommand(f"{field}.posture must be one of {', '.join(POSTURES)}", f"{field}.posture")
    if "position" in cpatch:
        _position(state, c.get("position"), f"{field}.position")
    if "facing" in cpatch:
        _facing(state, c.get("facing"), f"{field}.facing")
    if "conditions" in cpatch and not (
        isinstance(c.get("conditions"), list) and all(isinstance(x, str) for x in c["conditions"])
    ):
        raise BadCommand(f"{field}.conditions must be a list of condition names", f"{field}.conditions")
    if "items" in cpatch:
        items = c.get("items")
        if not isinstance(items, list) or not all(
            isinstance(it, dict) and isinstance(it.get("id"), str) and it["id"] for it in items
        ):
            raise BadCommand(f"{field}.items must be a list of items, each with an id", f"{field}.items")
    try:
        ruleset.validate_combatant(state, c)
    except RuleError:
        pass
    except BadCommand as exc:  # named from add_combatant's side: name it from the ruling's
        inner = (exc.field or "").removeprefix("combatant").lstrip(".")
        raise BadCommand(
            f"the ruling would leave {c['name']} malformed: {exc.message}",
            f"{field}.{inner}" if inner else field,
        ) from None


def _nested(dotted: str, value: Any) -> str:
    """A dotted key written as the nested JSON object a ruling takes: "a.b" -> {"a": {"b": value}}."""
    out = msgspec.json.encode(value).decode()
    for part in reversed(dotted.split(".")):
        out = f'{{"{part}": {out}}}'
    return out


def _accepted_shape(ruleset: Ruleset) -> str:
    """The overrides a ruling takes, as the JSON it is written in (nested objects, never dotted keys)."""
    allowed = sorted(p.split(".", 1)[1] if p.startswith("rules.") else p for p in ruleset.overridable)
    combatants = (
        '{"combatants": {"<id>": {"posture": "prone"}}} (a combatant\'s '
        + ", ".join(sorted(COMBATANT_OVERRIDABLE))
        + ")"
    )
    if not allowed:
        return f"overrides takes {combatants}; this ruleset declares no state of its own to override"
    return (
        f'overrides takes {combatants} and {{"rules": {{"{allowed[0]}": ...}}}} (this ruleset\'s '
        + ", ".join(allowed)
        + ")"
    )


def _ruling(state: dict[str, Any], cmd: c.Ruling, ruleset: Ruleset) -> list[Any]:
    for key, patch in cmd.overrides.items():
        if key == "combatants":
            if not isinstance(patch, dict):
                raise RuleError(
                    f"overrides.combatants must map combatant ids to patches: {_accepted_shape(ruleset)}"
                )
            for cid, cpatch in patch.items():
                combatant_or_error(state, cid)
                bad = set(cpatch or {}) - COMBATANT_OVERRIDABLE if isinstance(cpatch, dict) else {"?"}
                if bad:
                    raise RuleError(
                        f"a ruling may override only {', '.join(sorted(COMBATANT_OVERRIDABLE))} of "
                        f"a combatant, not {', '.join(sorted(bad))}: {_accepted_shape(ruleset)}"
                    )
                _check_overridden(state, cid, cpatch or {}, ruleset)
        elif key == "rules":
            allowed = {p.split(".", 1)[1] if p.startswith("rules.") else p for p in ruleset.overridable}
            bad = set(patch or {}) - allowed if isinstance(patch, dict) else {"?"}
            if bad:
                raise RuleError(
                    f"this ruleset lets a ruling override only {', '.join(sorted(allowed)) or 'nothing'} "
                    f"of its own state, not {', '.join(sorted(bad))}: {_accepted_shape(ruleset)}"
                )
        elif "." in key:
            raise RuleError(
                f"a ruling may not override {key!r}: overrides is nested JSON, not dotted paths "
                f"(write {_nested(key, patch)}); {_accepted_shape(ruleset)}"
            )
        else:
            raise RuleError(f"a ruling may not override {key!r}: {_accepted_shape(ruleset)}")
    return [RulingMade(cmd.text, cmd.overrides)]


def _void(state: dict[str, Any], cmd: c.Void, ctx: Context) -> list[Any]:
    if (cmd.seq is None) == (cmd.target_command_id is None):
        raise BadCommand("void names exactly one of seq or target_command_id", "seq")
    if not ctx.void_targets:
        what = f"seq {cmd.seq}" if cmd.seq is not None else f"command {cmd.target_command_id!r}"
        raise RuleError(f"there is no event at {what} to void")
    seqs = []
    for seq, type_ in ctx.void_targets:
        if seq in state["voided"]:
            raise RuleError(f"seq {seq} is already voided")
        if type_ in UNVOIDABLE:
            raise RuleError(f"seq {seq} is {type_}, which cannot be voided")
        seqs.append(seq)
    return [EventVoided(seqs, cmd.reason)]


def _respond(state: dict[str, Any], cmd: c.Respond, ctx: Context, ruleset: Ruleset, dice: Dice) -> list[Any]:
    pending = next((p for p in state["pending"] if p["id"] == cmd.reaction), None)
    if pending is None:
        ids = ", ".join(p["id"] for p in state["pending"]) or "none"
        raise RuleError(f"no reaction {cmd.reaction!r} is waiting for an answer (waiting: {ids})")
    if not _is_gm(ctx) and f"seat:{pending['asked_of']}" != ctx.actor:
        raise Forbidden(f"this reaction is asked of {pending['asked_of']}, not of your seat")
    choice = pending["default"] if cmd.choice == "default" else cmd.choice
    if choice not in pending["options"]:
        why = ruleset.refused_choice(state, pending, choice) if ruleset is not None else None
        if why:
            raise RuleError(why)
        raise RuleError(
            f"{cmd.choice!r} is not an answer to this {pending['kind']} question "
            f"(choose one of {', '.join(pending['options'])})"
        )
    answered = ReactionAnswered(pending["id"], choice, dict(cmd.params), ctx.actor)
    return [answered, ("resume", pending, Answer(choice, dict(cmd.params), ctx.actor))]


def decide_common(
    state: dict[str, Any], cmd: Command, ctx: Context, ruleset: Ruleset, dice: Dice
) -> list[Any]:
    """The events of a common command (a ("resume", pending, answer) marker asks the caller to resume)."""
    if isinstance(cmd, c.AddCombatant):
        _gm_only(ctx, "add combatants")
        return add_combatant(state, cmd, ruleset)
    if isinstance(cmd, c.RemoveCombatant):
        _gm_only(ctx, "remove combatants")
        combatant_or_error(state, cmd.combatant)
        return [CombatantRemoved(cmd.combatant)]
    if isinstance(cmd, c.SetStandingOrders):
        combatant_or_error(state, cmd.combatant)
        return [StandingOrdersSet(cmd.combatant, cmd.reactions)]
    if isinstance(cmd, c.StartTurn):
        _gm_only(ctx, "start a turn")
        turn = cmd.turn if cmd.turn is not None else state["turn"] + 1
        if turn <= state["turn"] and state["turn"] > 0:
            raise RuleError(f"turn {turn} would not follow turn {state['turn']}")
        return [TurnStarted(turn)]
    if isinstance(cmd, c.StartPhase):
        _gm_only(ctx, "start a phase")
        return [PhaseStarted(cmd.phase)]
    if isinstance(cmd, c.SetInitiative):
        _gm_only(ctx, "set the initiative order")
        for cid in cmd.order:
            combatant_or_error(state, cid)
        return [InitiativeSet(cmd.order)]
    if isinstance(cmd, c.Move):
        who = combatant_or_error(state, cmd.combatant)
        if not _is_gm(ctx) and not getattr(ruleset, "players_may_move", False):
            raise Forbidden("only the GM may use the plain move command in this ruleset")
        to = _position(state, cmd.to, "to")
        return [Moved(cmd.combatant, to, "move", _facing(state, cmd.facing, "facing"), who.get("position"))]
    if isinstance(cmd, c.RollDice):
        try:
            expr = parse(cmd.expression, ctx.roll_limits)
        except BadExpression as exc:
            raise BadCommand(str(exc), "expression") from None
        if cmd.combatant is not None:
            combatant_or_error(state, cmd.combatant)
        if cmd.hidden:
            _gm_only(ctx, "roll behind the screen (hidden): a player's rolls are made in the open")
            return [
                hidden_roll(
                    state,
                    expr,
                    cmd.purpose or cmd.expression,
                    cmd.combatant,
                    dice,
                    ctx.stream,
                    ctx.hidden_seed,
                )
            ]
        return list(roll_expression(expr, dice, cmd.purpose or cmd.expression, cmd.combatant))
    if isinstance(cmd, c.RevealRoll):
        _gm_only(ctx, "reveal a hidden roll")
        return [reveal_roll(state, cmd.seq, ctx.stream, ctx.hidden_seed)]
    if isinstance(cmd, c.Ask):
        _gm_only(ctx, "ask a question")
        if cmd.combatant is not None:
            combatant_or_error(state, cmd.combatant)
        if not cmd.options or cmd.default not in cmd.options:
            raise BadCommand("ask needs options and a default that is one of them", "default")
        return [
            ReactionRequested(
                "",
                cmd.kind,
                cmd.combatant,
                asked_of(state, cmd.combatant),
                cmd.options,
                cmd.default,
                [],
                {"engine": "ask"},
                cmd.question,
            )
        ]
    if isinstance(cmd, c.Respond):
        return _respond(state, cmd, ctx, ruleset, dice)
    if isinstance(cmd, c.Note):
        return [NotePosted(cmd.text)]
    if isinstance(cmd, c.Ruling):
        _gm_only(ctx, "make a ruling")
        return _ruling(state, cmd, ruleset)
    if isinstance(cmd, c.SetOptions):
        _gm_only(ctx, "change options")
        return _set_options(state, cmd, ruleset)
    if isinstance(cmd, c.Void):
        _gm_only(ctx, "void events")
        return _void(state, cmd, ctx)
    if isinstance(cmd, c.RotateSeed):
        if state["dice"] == "manual":
            raise RuleError("this encounter rolls physical dice: there is no server seed to rotate")
        return [DiceSeedRotated(ctx.current_seed or "", ctx.next_commitment)]
    if isinstance(cmd, c.Close):
        _gm_only(ctx, "close the encounter")
        out: list[Any] = reveal_at_close(state, ctx.stream, ctx.hidden_seed)
        if state["dice"] != "manual":
            out.append(DiceSeedRotated(ctx.current_seed or "", None))
        return [*out, EncounterClosed(cmd.reason)]
    raise BadCommand(f"unknown common command {type(cmd).__name__}")


__all__ = ["Context", "decide_common", "controls", "acting_as", "ActionDeclared", "pending_waits"]

ALWAYS_ALLOWED = frozenset(
    {"respond", "note", "roll", "ruling", "void", "reveal_roll", "rotate_seed", "close", "ask"}
)
COMMON_TYPES = frozenset(cls.__struct_config__.tag for cls in c.COMMON_COMMANDS)


class TooManyEvents(Exception):
    """A command would append more events than the server allows."""


def to_new_event(struct: msgspec.Struct) -> NewEvent:
    """An event Struct as an envelope payload: type = class name, data = every field."""
    data = msgspec.to_builtins(struct)
    try:
        check_integers_only(data)
    except FloatInEventData as exc:
        raise RuntimeError(f"{type(struct).__name__}: {exc}") from None
    return NewEvent(type(struct).__name__, data)


# Fields of a command that are not the declaration: the envelope holds the command_id, manual faces stay
# in their DieRolled, and expected_seq and expected_commitment were only preconditions of the append.
UNDECLARED = ("command_id", "dice", "expected_seq", "expected_commitment")


def declaration(cmd: Command, ruleset: Ruleset, keyed_by: str) -> dict[str, Any]:
    """The command as decided, for its first event's `data.declaration` (DESIGN.md "Declarations"):
    with the envelope's command_id, the recorded manual faces and the revealed seeds, enough for anyone
    with this ruleset's code of `version` to decide it again (`tussle verify --replay`)."""
    command = {k: v for k, v in msgspec.to_builtins(cmd).items() if k not in UNDECLARED}
    return {"command": command, "keyed_by": keyed_by, "ruleset": ruleset.id, "version": ruleset.version}


def _fold(state: dict[str, Any], new: NewEvent, ruleset: Ruleset, ctx: Context) -> dict[str, Any]:
    seq = state["seq"] + 1
    return evolve(
        state, Event(ctx.stream, seq, new.type, new.data, ctx.actor, ctx.command_id, "", "", ""), ruleset
    )


def pending_waits(pending: list[dict[str, Any]]) -> str:
    """The waiting reactions as a player reads them: kind, who is asked, and the reaction's id."""
    return "; ".join(f"{p['kind']} asked of {p['asked_of']} ({p['id']})" for p in pending)


def check_pending(state: dict[str, Any], ctype: str) -> None:
    pending = state["pending"]
    if not pending or ctype in ALWAYS_ALLOWED or any(ctype in p.get("allows", []) for p in pending):
        return
    raise RuleError(
        f"the fight waits for an answer first: {pending_waits(pending)}",
        {"pending": pending},
        code="reaction_pending",
    )


def check_seat(state: dict[str, Any], ruleset: Ruleset, cmd: Command, ctype: str, ctx: Context) -> None:
    """A player acts only as the combatants his seat controls, in every command (common ones included),
    before any rule is judged: otherwise the log would say another seat's figure did it."""
    if ctype in ruleset.gm_commands and ctx.actor not in ("gm", "system"):
        raise Forbidden(f"only the GM may send {ctype}")
    for cid in acting_as(cmd) if ctype in COMMON_TYPES else ruleset.actors(state, cmd):
        if cid in state["combatants"] and not controls(state, ctx, cid):
            raise Forbidden(
                f"your seat does not control {state['combatants'][cid]['name']}, so it cannot "
                f"send {ctype} as {cid}"
            )


@contextlib.contextmanager
def _naming_figure(i: int, combatant: Any) -> Iterator[None]:
    """An add_combatants refusal names which figure of the list it is about."""
    name = combatant.get("name") if isinstance(combatant, dict) else None
    who = f"combatants[{i}]" + (f" ({name})" if isinstance(name, str) and name else "")
    try:
        yield
    except BadCommand as exc:
        field = exc.field or "combatant"
        raise BadCommand(
            f"{who}: {exc.message}", f"combatants[{i}]{field.removeprefix('combatant')}"
        ) from None
    except RuleError as exc:
        raise RuleError(f"{who}: {exc.message}", exc.details, exc.code) from None


class Decided(NamedTuple):
    """A command's events and the state after each (folded as the store will seal them, but with the
    hash not yet known: `hash` is "" until the caller sets it), so nobody folds them again."""

    events: list[NewEvent]
    states: list[dict[str, Any]]


def decide_command(
    state: dict[str, Any], ruleset: Ruleset, cmd: Command, ctx: Context, dice: Dice, max_events: int = 1000
) -> list[NewEvent]:
    """The events one command appends, or an exception saying why it appends nothing."""
    return decide_folded(state, ruleset, cmd, ctx, dice, max_events).events


def decide_folded(
    state: dict[str, Any], ruleset: Ruleset, cmd: Command, ctx: Context, dice: Dice, max_events: int = 1000
) -> Decided:
    """`decide_command`, with the state after each of its events (issue 26 item 3: fold once)."""
    ctype = command_type(cmd)
    cmd = msgspec.structs.replace(cmd, actor=ctx.actor)
    declared = declaration(cmd, ruleset, dice.keyed_by)  # before any rekey: the keys this command brought
    if ctx.signed_request is not None:
        declared["signed_request"] = ctx.signed_request
    check_seat(state, ruleset, cmd, ctype, ctx)
    check_pending(state, ctype)
    folded = state
    out: list[NewEvent] = []
    states: list[dict[str, Any]] = []  # states[i]: after out[i]
    reactions = 0

    def push(struct: msgspec.Struct) -> None:
        nonlocal folded, reactions
        if isinstance(struct, ReactionRequested):
            if not struct.id:
                reactions += 1
                struct = msgspec.structs.replace(struct, id=f"{ctx.command_id}/{reactions}")
            struct = msgspec.structs.replace(struct, dice_key=dice_key(dice))
        ne = to_new_event(struct)
        out.append(ne)
        if len(out) > max_events:
            raise TooManyEvents(f"the command would append more than {max_events} events")
        folded = _fold(folded, ne, ruleset, ctx)
        states.append(folded)

    if isinstance(cmd, c.AddCombatants):
        # Each figure as its own add_combatant, on the state its predecessors made (ids checked against
        # them, a ruleset's placement hooks see them): one command, so all of them or none.
        for i, one in enumerate(cmd.combatants):
            single = c.AddCombatant(combatant=one, actor=cmd.actor)
            with _naming_figure(i, one):
                for s in ruleset.on_common(
                    folded, single, decide_common(folded, single, ctx, ruleset, dice), dice
                ):
                    push(s)
    elif ctype in COMMON_TYPES:
        decided = decide_common(state, cmd, ctx, ruleset, dice)
        items: list[Any] = []
        for item in decided:
            if isinstance(item, tuple) and item[0] == "resume":
                for s in items:
                    push(s)
                items = []
                _, pending, answer = item
                key_answer(state, pending, ctx.actor, dice)
                if pending.get("resume", {}).get("engine") != "ask":
                    for s in ruleset.resume(folded, pending, answer, dice):
                        push(s)
            else:
                items.append(item)
        if not isinstance(cmd, c.Respond):
            items = list(ruleset.on_common(state, cmd, items, dice))
        for s in items:
            push(s)
    else:
        for s in ruleset.decide(state, cmd, dice):
            push(s)

    # Standing orders answer at once, inside this command; their resumption may ask again.
    i = 0
    while i < len(out):
        ne = out[i]
        i += 1
        if ne.type != "ReactionRequested":
            continue
        req = ne.data
        if not any(p["id"] == req["id"] for p in folded["pending"]):
            continue
        who = folded["combatants"].get(req["combatant"] or "")
        choice = (who or {}).get("reactions", {}).get(req["kind"])
        if choice is None or choice not in req["options"]:
            continue
        # A standing answer the rules refuse now leaves the question open for a person to answer,
        # rather than failing the command that asked it.
        saved_out, saved_states, saved_folded, saved_dice = list(out), list(states), folded, dice.mark()
        try:
            push(ReactionAnswered(req["id"], choice, {}, "standing_order"))
            if req.get("resume", {}).get("engine") != "ask":
                for s in ruleset.resume(folded, req, Answer(choice, {}, "standing_order"), dice):
                    push(s)
        except (RuleError, BadCommand):
            out[:], states[:], folded = saved_out, saved_states, saved_folded
            dice.rewind(saved_dice)
    # Option rotate_seed_each_turn: every new turn reveals the seed, whichever command started it
    # (start_turn, or a ruleset that starts the next round itself) -- unless the command leaves a question
    # open: a resolution's dice keep the seed it began with (DESIGN.md "Dice"), so that turn keeps it.
    if (
        state["options"].get("rotate_seed_each_turn")
        and state["dice"] != "manual"
        and any(ne.type == "TurnStarted" for ne in out)
        and not any(ne.type == "DiceSeedRotated" for ne in out)
        and not folded["pending"]
    ):
        push(DiceSeedRotated(ctx.current_seed or "", ctx.next_commitment))
    dice.check_all_used()
    if out:
        out[0] = NewEvent(out[0].type, {**out[0].data, "declaration": declared})
    return Decided(out, states)
