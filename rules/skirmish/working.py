"""A decision in progress: the events so far, and the state they lead to, so each later step of the flow chart
judges the figures as they are after the earlier steps (a fall, a dropped weapon, a wound)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.dice import Dice
from events.envelope import Event
from rules.skirmish import state as skirmish_state
from rules.state import evolve


class Working:
    """Collects the events of one command (or one resumption) and folds each into a private copy of the state."""

    def __init__(self, state: dict[str, Any], dice: Dice, rules: Any = None):
        self.state = state
        self.dice = dice
        self.events: list[msgspec.Struct] = []
        self._rules = rules or skirmish_state

    def emit(self, *events: msgspec.Struct) -> None:
        for ev in events:
            self.events.append(ev)
            envelope = Event(
                stream=self.state.get("stream") or "",
                seq=self.state.get("seq", 0) + 1,
                type=type(ev).__name__,
                data=msgspec.to_builtins(ev),
                actor="system",
                command_id="",
                ts="",
                prev_hash="",
                hash="",
            )
            self.state = evolve(self.state, envelope, self._rules)

    @property
    def turn(self) -> int:
        return self.state.get("turn", 0)

    def combatant(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]


Decider = Callable[[dict[str, Any], Any, Dice], list[msgspec.Struct]]


def decider(step: Callable[[Working, Any], None]) -> Decider:
    """A `decide` for one command from a step that emits into a Working."""

    def decide(state: dict[str, Any], command: Any, dice: Dice) -> list[msgspec.Struct]:
        w = Working(state, dice)
        step(w, command)
        return w.events

    decide.__name__ = step.__name__
    decide.__doc__ = step.__doc__
    return decide
