"""Folding decided-but-unappended events into a copy of the state, so later checks see their effect."""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import Event
from rules.state import evolve
from rules.tft.state import evolve_rules


class _RulesOnly:
    """The part of the ruleset `rules.state.evolve` needs."""

    @staticmethod
    def evolve(rules_state: dict[str, Any], event: Any) -> dict[str, Any]:
        return evolve_rules(rules_state, event)


def as_event(state: dict[str, Any], struct: Any, offset: int) -> Event:
    """An envelope for a decided event, as the reducer expects (seq and hash are placeholders)."""
    return Event(state.get("stream") or "preview", state.get("seq", 0) + offset, type(struct).__name__,
                 msgspec.to_builtins(struct), "preview", "preview", "", "", "")


def after(state: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    """The state once these events are applied (the input is not changed)."""
    s = state
    for i, e in enumerate(events, 1):
        s = evolve(s, as_event(state, e, i), _RulesOnly)
    return {**s, "seq": state.get("seq", 0), "hash": state.get("hash")}
