"""Commands keyed by Discord (`keyed_by: "discord"`, docs/discord.md): each keeps in its declaration the
request Discord signed, and the verifier checks it with the application's public key: the signature,
that the interaction is the one whose id keyed the dice, and that its token's digest is the entropy.

So an operator cannot make up a "Discord" command, nor choose its dice key: the id and the token are
Discord's. What the operator still can do is drop an interaction (docs/verifying.md says so).
"""

from __future__ import annotations

from typing import Any

from events.envelope import Event
from server.discord.signature import BadPublicKey, signed_request_problem


class DiscordClaims:
    """The Discord claims checked event by event, resumable (the verifier's checkpoint), under `keys`."""

    def __init__(self, keys: list[str] | None) -> None:
        self.keys = keys
        self.problems: list[tuple[int, str]] = []
        self.previous: str | None = None
        self.from_discord: set[str] = set()  # the commands whose declaration says Discord keyed them

    def fold(self, events: list[Event]) -> None:
        """Take the events after the last ones taken."""
        out = self.problems
        for e in events:
            if e.command_id != self.previous:
                self.previous = e.command_id
                declared = e.data.get("declaration")
                if isinstance(declared, dict):
                    if declared.get("keyed_by") == "discord":
                        self.from_discord.add(e.command_id)
                        why = _problem(declared, e.command_id, self.keys)
                        if why is not None:
                            out.append((e.seq, f"seq {e.seq}: command {e.command_id!r} {why}"))
                    else:
                        self.from_discord.discard(e.command_id)
            if (
                e.type == "DieRolled"
                and e.data.get("keyed_by") == "discord"
                and e.data.get("source") != "manual"
            ):
                key = e.data.get("keyed_command_id") or e.command_id
                if key not in self.from_discord:
                    out.append(
                        (
                            e.seq,
                            f"seq {e.seq}: a die keyed by Discord under {key!r}, a command that was not sent "
                            "from Discord",
                        )
                    )


def _problem(declared: dict[str, Any], command_id: str, keys: list[str] | None) -> str | None:
    try:
        why = signed_request_problem(declared, command_id, list(keys or []))
    except BadPublicKey as exc:
        return f"cannot be checked: {exc}"
    if why is None and not keys:
        return (
            "is keyed by Discord, but no Discord application public key was given to check its signature with"
        )
    return why
