"""Folding events decided earlier in the same command into the state, for a rule that must look at
the state they produce (e.g. an evade answered at once after the mover entered the hex)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import Event
from rules.gurps.state import evolve_rules
from rules.state import evolve


class _RulesOnly:
    """The part of the ruleset that `rules.state.evolve` calls."""

    @staticmethod
    def evolve(rules_state: dict[str, Any], event: Event) -> dict[str, Any]:
        return evolve_rules(rules_state, event)


def folded(state: dict[str, Any], events: list[msgspec.Struct]) -> dict[str, Any]:
    """The state after `events` (not yet appended: they get provisional seqs)."""
    seq = int(state.get("seq", 0))
    for e in events:
        seq += 1
        env = Event(str(state.get("stream") or ""), seq, type(e).__name__, msgspec.to_builtins(e),
                    "system", "", "", str(state.get("hash", "")), "")
        state = evolve(state, env, _RulesOnly)
    return state
