"""What the rules leave to the GM (spec §4): who sent a command, as the engine tells `command.actor`."""

from __future__ import annotations

from typing import Any

from rules.interface import Forbidden

# The GM, or the engine acting on its own; every other actor (`seat:<id>`) is a player.
GM_ACTORS = frozenset({"gm", "system"})


def by_gm(command: Any) -> bool:
    """Whether the GM (not a player's seat) sent this command."""
    return getattr(command, "actor", "") in GM_ACTORS


def gm_only(command: Any, what: str) -> None:
    """Refuse (403) a GM decision a player tried to make; `what` names it."""
    if not by_gm(command):
        raise Forbidden(f"only the GM may {what}")
