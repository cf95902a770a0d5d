"""Settling an owed swing: the `swing_target` reaction, answered by `respond` or by the
`ap-grapple.swing_target` command (DESIGN.md "Reactions": a spec's `SwingTarget` is a reaction)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ReactionAnswered, ReactionCancelled
from events.dice import Dice
from rules.ap_grapple.action_points import pending_swing
from rules.ap_grapple.combatants import name_of
from rules.ap_grapple.commands import SwingTarget
from rules.ap_grapple.events import GripLost
from rules.ap_grapple.swing import SWING_REACTION, resolve_swing, swing_lost
from rules.interface import Answer, BadCommand, RuleError, combatant_or_error

ANSWER_FIELDS = ("barrier",)


def _barrier_param(params: dict[str, Any]) -> bool:
    unknown = [k for k in params if k not in ANSWER_FIELDS]
    if unknown:
        raise BadCommand(
            f"a swing answer takes only barrier (true or false), not {', '.join(unknown)}", unknown[0]
        )
    barrier = params.get("barrier", False)
    if not isinstance(barrier, bool):
        raise BadCommand("barrier must be true or false", "barrier")
    return barrier


def resume_swing(
    state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
) -> list[msgspec.Struct]:
    """The swing after `respond {reaction, choice: left|right|own_hex|in_place|dir_<n>, barrier?}`."""
    barrier = _barrier_param(answer.params)
    attacker = pending.get("resume", {}).get("attacker")
    defender = pending.get("resume", {}).get("defender")
    if not isinstance(attacker, str) or not isinstance(defender, str):
        return [ReactionCancelled(pending.get("id", ""), "the swing request names no grabber and defender")]
    lost = swing_lost(state, attacker, defender)
    if lost:
        return [ReactionCancelled(pending.get("id", ""), lost), GripLost(attacker, defender, lost)]
    # A choice the rules refuse raises: from `respond` that is a 422; from a standing order (which carries
    # no barrier claim, so `in_place` fails) the engine leaves the question open for the player.
    return resolve_swing(state, attacker, defender, answer.choice, barrier, dice)


def decide_swing_target(state: dict[str, Any], cmd: SwingTarget, dice: Dice) -> list[msgspec.Struct]:
    """`ap-grapple.swing_target`: answers the grabber's pending reaction, then swings."""
    combatant_or_error(state, cmd.combatant)
    owed = pending_swing(state, cmd.combatant)
    if owed is None:
        raise RuleError(
            f"{name_of(state, cmd.combatant)} has no swing to make: a swing follows a grab that "
            "pulled the enemy off balance"
        )
    reaction = next(
        (
            p
            for p in state.get("pending") or []
            if p.get("kind") == SWING_REACTION and p.get("combatant") == cmd.combatant
        ),
        None,
    )
    events: list[msgspec.Struct] = []
    if reaction is not None:
        # `by` is whoever sent the command (`gm` or `seat:<id>`), as for `respond`.
        by = cmd.actor or reaction["asked_of"]
        events.append(ReactionAnswered(reaction["id"], cmd.to, {"barrier": cmd.barrier}, by))
    lost = swing_lost(state, owed["attacker"], owed["defender"])
    if lost:
        return [*events, GripLost(owed["attacker"], owed["defender"], lost)]
    return events + resolve_swing(state, owed["attacker"], owed["defender"], cmd.to, cmd.barrier, dice)
