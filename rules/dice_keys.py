"""Which command keys a resolution's dice (DESIGN.md "Dice"), and each waiting key's draw counter.

Every die drawn while resolving a command, also later in a `respond`, a standing order or a timeout
answer, is keyed by the most recent command of that resolution sent by a seat, else by the command
that started it. So the GM (who may run the server and read the seed) never chooses the inputs of a
die in a resolution a player took part in: answering a player's attack, the GM's `respond` draws
under the player's command_id and entropy, its counter continuing past every draw already stored
under that command (voided ones included, so void-and-answer-again never replays faces seen).

A `ReactionRequested` carries its resolution's key (`dice_key`); the fold keeps, for every key a
waiting reaction names, the next draw in `state["dice_draws"]` (absent while none waits).
"""

from __future__ import annotations

from typing import Any

from events.dice import Dice
from events.envelope import Event

State = dict[str, Any]


def is_seat(actor: str) -> bool:
    """Whether a command was sent by a player's seat (not the GM, a standing order or the server)."""
    return actor.startswith("seat:")


def dice_key(dice: Dice) -> dict[str, Any]:
    """The key the dice draw under now, as a `ReactionRequested` records it for the answer to continue."""
    return {
        "command_id": dice.command_id,
        "entropy": dice.entropy,
        "keyed_by": dice.keyed_by,
        "next_draw": dice.next_draw,
    }


def key_answer(state: State, pending: dict[str, Any], actor: str, dice: Dice) -> None:
    """Key the dice of an answer to `pending`: a seat's answer keys its own (the player now chooses);
    anyone else's continues the key the question was asked under."""
    key = pending.get("dice_key")
    if is_seat(actor) or not key:
        return
    counter = state.get("dice_draws", {}).get(key["command_id"], key["next_draw"])
    dice.rekey(key["command_id"], key["entropy"], key["keyed_by"], max(counter, key["next_draw"]))


def _keys_waiting(pending: list[dict[str, Any]]) -> set[str]:
    return {p["dice_key"]["command_id"] for p in pending if p.get("dice_key")}


def fold_draws(s: State, e: Event) -> None:
    """Keep the next draw of every key a waiting reaction names (`s` is a shallow copy being folded;
    called for voided dice too, whose draws are spent all the same)."""
    draws = s.get("dice_draws", {})
    if e.type == "DieRolled":
        key = e.data.get("keyed_command_id") or e.command_id
        if key in draws and e.data.get("draws"):
            s["dice_draws"] = {**draws, key: max(draws[key], max(e.data["draws"]) + 1)}
    elif e.type == "ReactionRequested":
        key = e.data.get("dice_key")
        if key:
            cid = key["command_id"]
            s["dice_draws"] = {**draws, cid: max(draws.get(cid, 0), key["next_draw"])}
    elif e.type in ("ReactionAnswered", "ReactionCancelled") and draws:
        waiting = _keys_waiting(s["pending"])
        kept = {k: v for k, v in draws.items() if k in waiting}
        if kept:
            s["dice_draws"] = kept
        else:  # absent when no key waits, so states without reactions look as they always did
            del s["dice_draws"]
