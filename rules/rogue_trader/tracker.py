"""A decision's running state: the events decided so far, folded into a copy of the state.

A command often decides several steps in a row (a blow kills, the next blow sees the dead model);
folding each event through the engine's own reducer keeps every later step honest without a
second bookkeeping of wounds, contacts and positions.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import Event
from rules.state import evolve


class Tracker:
    """Collects events and keeps `state` as it will be after them."""

    def __init__(self, state: dict[str, Any], ruleset: Any):
        self.state = state
        self.ruleset = ruleset
        self.events: list[msgspec.Struct] = []

    def emit(self, *events: msgspec.Struct) -> None:
        """Append events and fold them into `state`."""
        for ev in events:
            self.events.append(ev)
            envelope = Event(
                stream=self.state.get("stream") or "", seq=int(self.state.get("seq", 0)) + 1,
                type=type(ev).__name__, data=msgspec.to_builtins(ev), actor="system",
                command_id="deciding", ts="", prev_hash="", hash=self.state.get("hash", ""),
            )
            self.state = evolve(self.state, envelope, self.ruleset)

    def extend(self, events: list[msgspec.Struct]) -> None:
        self.emit(*events)
