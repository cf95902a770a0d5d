"""A skirmish decision in progress: the kernel's `rules.working.Working` with the skirmish fold, so each later
step of the flow chart judges the figures as they are after the earlier steps (a fall, a dropped weapon, a wound)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.dice import Dice
from rules.skirmish import state as skirmish_state
from rules.working import Working


def working(state: dict[str, Any], dice: Dice) -> Working:
    """A Working for one skirmish command (or one resumption)."""
    return Working(state, skirmish_state.evolve, dice)


Decider = Callable[[dict[str, Any], Any, Dice], list[msgspec.Struct]]


def decider(step: Callable[[Working, Any], None]) -> Decider:
    """A `decide` for one command from a step that emits into a Working."""

    def decide(state: dict[str, Any], command: Any, dice: Dice) -> list[msgspec.Struct]:
        w = working(state, dice)
        step(w, command)
        return w.events

    decide.__name__ = step.__name__
    decide.__doc__ = step.__doc__
    return decide
