"""Who may supply a command's dice faces: the rule the service applies before deciding and the replay
audit applies to the faces a stored command supplied (server/replaying.py), so both judge alike."""

from __future__ import annotations

from typing import Any

from rules.interface import BadCommand, Forbidden


def check_supplied_dice(state: dict[str, Any], actor: str) -> None:
    """BadCommand in an encounter of server dice; Forbidden for anyone but the GM unless the encounter's
    option manual_dice_from is actor."""
    if state["dice"] == "server":
        raise BadCommand("this encounter uses server dice: a command may not supply faces", "dice")
    if actor != "gm" and state["options"].get("manual_dice_from", "gm") != "actor":
        raise Forbidden("only the GM may supply dice faces in this encounter (option manual_dice_from is gm)")


__all__ = ["check_supplied_dice"]
