"""The command pipeline: one command in, the events to append out — pure, and knowing no ruleset.

It gates commands while reactions wait, checks that a player controls the combatants a command
moves, runs the common or the ruleset's decide, answers reactions from standing orders inside the
same command, and turns event Structs into envelope payloads.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.canonical import FloatInEventData, check_integers_only
from events.common import DiceSeedRotated, ReactionAnswered, ReactionRequested
from events.dice import Dice
from events.envelope import Event, NewEvent
from rules.common import commands as common
from rules.common.deciding import Context, acting_as, controls, decide_common
from rules.interface import Answer, BadCommand, Command, Forbidden, RuleError, command_type
from rules.state import evolve

ALWAYS_ALLOWED = frozenset({"respond", "note", "roll", "ruling", "void", "rotate_seed", "close", "ask"})
COMMON_TYPES = frozenset(cls.__struct_config__.tag for cls in common.COMMON_COMMANDS)


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


def _fold(state: dict[str, Any], new: NewEvent, ruleset: Any, ctx: Context) -> dict[str, Any]:
    seq = state["seq"] + 1
    return evolve(state, Event(ctx.stream, seq, new.type, new.data, ctx.actor, ctx.command_id, "", "", ""), ruleset)


def _check_pending(state: dict[str, Any], ctype: str) -> None:
    pending = state["pending"]
    if not pending or ctype in ALWAYS_ALLOWED or any(ctype in p.get("allows", []) for p in pending):
        return
    waits = "; ".join(f"{p['kind']} asked of {p['asked_of']} ({p['id']})" for p in pending)
    raise RuleError(f"the fight waits for an answer first: {waits}", {"pending": pending}, code="reaction_pending")


def _check_seat(state: dict[str, Any], ruleset: Any, cmd: Command, ctype: str, ctx: Context) -> None:
    """A player acts only as the combatants his seat controls, in every command (common ones included),
    before any rule is judged: otherwise the log would say another seat's figure did it."""
    if ctype in ruleset.gm_commands and ctx.actor not in ("gm", "system"):
        raise Forbidden(f"only the GM may send {ctype}")
    for cid in acting_as(cmd) if ctype in COMMON_TYPES else ruleset.actors(state, cmd):
        if cid in state["combatants"] and not controls(state, ctx, cid):
            raise Forbidden(f"your seat does not control {state['combatants'][cid]['name']}, so it cannot "
                            f"send {ctype} as {cid}")


def decide_command(
    state: dict[str, Any], ruleset: Any, cmd: Command, ctx: Context, dice: Dice, max_events: int = 1000
) -> list[NewEvent]:
    """The events one command appends, or an exception saying why it appends nothing."""
    ctype = command_type(cmd)
    cmd = msgspec.structs.replace(cmd, actor=ctx.actor)
    _check_seat(state, ruleset, cmd, ctype, ctx)
    _check_pending(state, ctype)
    folded = state
    out: list[NewEvent] = []
    reactions = 0

    def push(struct: msgspec.Struct) -> None:
        nonlocal folded, reactions
        if isinstance(struct, ReactionRequested) and not struct.id:
            reactions += 1
            struct = msgspec.structs.replace(struct, id=f"{ctx.command_id}/{reactions}")
        ne = to_new_event(struct)
        out.append(ne)
        if len(out) > max_events:
            raise TooManyEvents(f"the command would append more than {max_events} events")
        folded = _fold(folded, ne, ruleset, ctx)

    if ctype in COMMON_TYPES:
        decided = decide_common(state, cmd, ctx, ruleset, dice)
        items: list[Any] = []
        for item in decided:
            if isinstance(item, tuple) and item[0] == "resume":
                for s in items:
                    push(s)
                items = []
                _, pending, answer = item
                if pending.get("resume", {}).get("engine") != "ask":
                    for s in ruleset.resume(folded, pending, answer, dice):
                        push(s)
            else:
                items.append(item)
        if not isinstance(cmd, common.Respond):
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
        saved_out, saved_folded, saved_dice = list(out), folded, dice.mark()
        try:
            push(ReactionAnswered(req["id"], choice, {}, "standing_order"))
            if req.get("resume", {}).get("engine") != "ask":
                for s in ruleset.resume(folded, req, Answer(choice, {}, "standing_order"), dice):
                    push(s)
        except (RuleError, BadCommand):
            out[:], folded = saved_out, saved_folded
            dice.rewind(saved_dice)
    # Option rotate_seed_each_turn: every new turn reveals the seed, whichever command started it
    # (start_turn, or a ruleset that starts the next round itself).
    if (state["options"].get("rotate_seed_each_turn") and state["dice"] != "manual"
            and any(ne.type == "TurnStarted" for ne in out) and not any(ne.type == "DiceSeedRotated" for ne in out)):
        push(DiceSeedRotated(ctx.current_seed or "", ctx.next_commitment))
    dice.check_all_used()
    return out
