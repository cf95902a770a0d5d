"""The GM's rolls behind the screen: `roll` with `hidden`, `reveal_roll`, and what `close` reveals.

The faces and salt are derived from the hidden seed (events/hidden_rolls.py), which the server hands to
decide only for these commands; the events hold the commitment until the faces are revealed.
"""

from __future__ import annotations

from typing import Any

from events.common import HiddenRollMade, HiddenRollRevealed, HiddenSeedRevealed
from events.dice import Dice
from events.dice_expressions import Expression
from events.hidden_rolls import hidden_faces, roll_commitment, salt_of, total_of
from rules.interface import BadCommand, RuleError


def _no_hidden_seed(state: dict[str, Any]) -> RuleError:
    if state["dice"] == "manual":
        return RuleError("this encounter rolls physical dice: a hidden roll needs the server's hidden seed")
    return RuleError(
        "this encounter was created before hidden rolls existed: it has no hidden seed to roll from"
    )


def hidden_roll(
    state: dict[str, Any],
    expr: Expression,
    purpose: str,
    combatant: str | None,
    dice: Dice,
    stream: str,
    seed: bytes | None,
) -> HiddenRollMade:
    """The commitment to a hidden roll's faces, keyed by the roll's own command and entropy."""
    if seed is None or not state.get("hidden_commitment"):
        raise _no_hidden_seed(state)
    if dice.manual:
        raise BadCommand("a hidden roll's faces come from the hidden seed: leave out dice", "dice")
    faces = hidden_faces(seed, stream, dice.command_id, dice.entropy, expr)
    salt = salt_of(seed, stream, dice.command_id, dice.entropy)
    return HiddenRollMade(
        expr.text,
        purpose,
        dice.entropy,
        dice.keyed_by,
        dice.command_id,
        roll_commitment(faces, salt),
        combatant,
    )


def _revealed(roll: dict[str, Any], stream: str, seed: bytes) -> HiddenRollRevealed:
    faces = hidden_faces(seed, stream, roll["keyed_command_id"], roll["entropy"], roll["expression"])
    return HiddenRollRevealed(
        roll["seq"],
        faces,
        salt_of(seed, stream, roll["keyed_command_id"], roll["entropy"]),
        total_of(roll["expression"], faces),
    )


def reveal_roll(state: dict[str, Any], seq: int, stream: str, seed: bytes | None) -> HiddenRollRevealed:
    """The faces of the hidden roll at `seq`, for everyone."""
    roll = next((r for r in state.get("hidden_rolls", []) if r["seq"] == seq), None)
    if roll is None:
        raise RuleError(f"seq {seq} is not a hidden roll of this encounter")
    if roll["revealed"]:
        raise RuleError(f"the hidden roll at seq {seq} is already revealed")
    if seed is None:
        raise _no_hidden_seed(state)
    return _revealed(roll, stream, seed)


def reveal_at_close(state: dict[str, Any], stream: str, seed: bytes | None) -> list[Any]:
    """Every hidden roll not yet revealed, then the hidden seed itself (none of it in an encounter that
    made no hidden roll: there is nothing to check, and its close stays as it always was)."""
    commitment = state.get("hidden_commitment")
    if not commitment or seed is None or not state.get("hidden_rolls"):
        return []
    out: list[Any] = [_revealed(r, stream, seed) for r in state.get("hidden_rolls", []) if not r["revealed"]]
    return [*out, HiddenSeedRevealed(commitment, seed.hex())]


__all__ = ["hidden_roll", "reveal_at_close", "reveal_roll"]
