"""The TFT turn sequence (spec 4.0, seed §Options): each turn a movement phase, then an action phase."""

from __future__ import annotations

from typing import Any

from rules.interface import RuleError
from rules.tft.playing import PHASES

SEQUENCE = "a TFT turn is start_turn, then the movement phase, then the action phase (§Options)"


def phase_problem(state: dict[str, Any], phase: str) -> str | None:
    """Why `phase` may not begin now, or None. The tft record's phase is reset at each TurnStarted."""
    if phase not in PHASES:
        return f"{SEQUENCE}; there is no {phase!r} phase"
    rules = state.get("rules", {})
    if not state.get("turn"):
        return f"{SEQUENCE}; no turn has started yet"
    current = rules.get("phase")
    expected = (
        PHASES[0]
        if current is None
        else (PHASES[PHASES.index(current) + 1] if current in PHASES[:-1] else None)
    )
    if phase == expected:
        return None
    turn = state.get("turn")
    if expected is None:
        return f"{SEQUENCE}; turn {turn}'s {current} phase is under way: start_turn begins the next turn"
    return (
        f"{SEQUENCE}; turn {turn} is {'at its start' if current is None else f'in its {current} phase'}, "
        f"so the {expected} phase comes next"
    )


def wrong_phase(state: dict[str, Any], wanted: str, what: str) -> str | None:
    """Why `what` ("actions are taken", a sentence's start) is not done now: it takes the `wanted` phase, and
    the sentence says what the GM starts first. None in that phase."""
    now, turn = state.get("phase"), state.get("turn")
    if now == wanted:
        return None
    if not turn:
        where = "no turn has started: the GM starts one (start_turn), then its movement phase"
    elif now is None:
        where = f"turn {turn} is in no phase yet: the GM starts its movement phase (start_phase movement)"
    elif (now, wanted) == ("movement", "action"):
        where = "this is the movement phase: the GM starts the action phase (start_phase action)"
    elif (now, wanted) == ("action", "movement"):
        where = f"turn {turn}'s movement phase is over: the next is turn {turn + 1}'s (start_turn)"
    else:
        where = f"this is the {now} phase, which the GM forced: the GM starts the {wanted} phase"
    return f"{what} in the {wanted} phase, and {where}"


def check_phase(state: dict[str, Any], phase: str, force: bool) -> None:
    """Refuse an unknown or out-of-order phase, unless the GM forces it (`force: true`, NOTES.md)."""
    problem = None if force else phase_problem(state, phase)
    if problem:
        raise RuleError(
            f"The {phase} phase may not start: {problem} (the GM may send force: true to override).",
            {"phase": phase, "sequence": list(PHASES)},
        )
