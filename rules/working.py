"""A decision in progress: the events decided so far, folded into a copy of the state.

A command often decides several steps in a row (a blow kills, the next blow sees the dead model; an
evade answered at once after the mover entered the hex); folding each event through the same fold
the store uses (`rules.state.evolve`: the common core, then the ruleset's own part) keeps every later
step honest without a second bookkeeping. The events are not appended yet: they get provisional
seqs after the state's and no hash; the input state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from events.dice import Dice
from events.envelope import Event
from rules.state import State, evolve

# A ruleset's own fold: `Ruleset.evolve(rules_state, event)`, or the function it delegates to.
RulesFold = Callable[[dict[str, Any], Event], dict[str, Any]]


class _Rules:
    """The part of a ruleset `rules.state.evolve` calls."""

    __slots__ = ("evolve",)

    def __init__(self, fold: RulesFold):
        self.evolve = fold


def provisional(state: State, event: msgspec.Struct, seq: int) -> Event:
    """An envelope for a decided, not yet appended event (no hash: it is not sealed)."""
    return Event(
        stream=state.get("stream") or "",
        seq=seq,
        type=type(event).__name__,
        data=msgspec.to_builtins(event),
        actor="system",
        command_id="",
        ts="",
        prev_hash="",
        hash="",
    )


class Working:
    """Collects the events of one command (or one resumption) and keeps `state` as it will be after them."""

    def __init__(self, state: State, rules: RulesFold, dice: Dice | None = None):
        self.state = state
        self.dice = dice
        self.events: list[msgspec.Struct] = []
        self._rules = _Rules(rules)

    def emit(self, *events: msgspec.Struct) -> None:
        """Append events and fold each into `state`."""
        for ev in events:
            self.events.append(ev)
            self.state = evolve(
                self.state, provisional(self.state, ev, int(self.state.get("seq", 0)) + 1), self._rules
            )

    def extend(self, events: Iterable[msgspec.Struct]) -> None:
        self.emit(*events)

    @property
    def turn(self) -> int:
        return int(self.state.get("turn", 0))

    def combatant(self, cid: str) -> dict[str, Any]:
        """A combatant as it is after the events so far (KeyError: not in the encounter)."""
        return self.state["combatants"][cid]


def folded(state: State, events: Iterable[msgspec.Struct], rules: RulesFold) -> State:
    """The state once `events` (decided, not yet appended) are applied; the input is not changed."""
    w = Working(state, rules)
    w.extend(events)
    return w.state
