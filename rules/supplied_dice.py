"""Who may supply a command's dice faces: the rule the service applies before deciding and the replay
audit applies to the faces a stored command supplied (server/audit/replaying.py), and every verifier and the
dice audit apply to a stored manual roll (refused_faces), so all judge alike."""

from __future__ import annotations

from typing import Any

from events.envelope import Event
from rules.interface import BadCommand, Forbidden


def check_supplied_dice(state: dict[str, Any], actor: str) -> None:
    """BadCommand in an encounter of server dice; Forbidden for anyone but the GM unless the encounter's
    option manual_dice_from is actor."""
    if state["dice"] == "server":
        raise BadCommand("this encounter uses server dice: a command may not supply faces", "dice")
    if actor != "gm" and state["options"].get("manual_dice_from", "gm") != "actor":
        raise Forbidden("only the GM may supply dice faces in this encounter (option manual_dice_from is gm)")


class SuppliedDice:
    """The dice source and options a stream has published so far, read event by event: so a verifier that
    resumes where it stopped judges a new manual roll by the rules in force then, without the events
    before it."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"dice": "server", "options": {}}

    def refusal(self, e: Event) -> str | None:
        """Why `e`, a manual `DieRolled`, supplied faces the rules in force forbade anyone to supply, or
        None (for every event: each moves the rules on)."""
        if e.type == "EncounterCreated":
            self.state = {"dice": e.data.get("dice", "server"), "options": dict(e.data.get("options") or {})}
        elif e.type == "OptionsChanged" and isinstance(e.data.get("options"), dict):
            self.state = {**self.state, "options": {**self.state["options"], **e.data["options"]}}
        if e.type != "DieRolled" or e.data.get("source") != "manual":
            return None
        what = f"faces {e.data.get('faces')} ({e.data.get('purpose')})"
        try:
            check_supplied_dice(self.state, e.actor)
        except BadCommand:
            return (
                f"seq {e.seq}: manual faces in an encounter whose dice are the server's: {what}, "
                "but no command may supply faces there"
            )
        except Forbidden as exc:
            return f"seq {e.seq}: manual faces from {e.actor}: {what}, but {exc.message}"
        return None


def refused_faces(events: list[Event]) -> dict[int, str]:
    """Each manual `DieRolled` whose faces the encounter's rules forbade anyone to supply (server dice; or
    a player's where option manual_dice_from is gm), by seq, with why: judged by rules/supplied_dice.py
    on the dice source and options the stream itself published, as the service judged the command."""
    rules = SuppliedDice()
    return {e.seq: why for e in events if (why := rules.refusal(e)) is not None}


__all__ = ["SuppliedDice", "check_supplied_dice", "refused_faces"]
