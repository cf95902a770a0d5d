"""Asking the GM for a result the flow chart owes (spec 4.7, 4.8): the chart result of a blow or a fall,
a morale test. The flow pauses on the reaction; gm_results.py goes on with it."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ReactionRequested
from rules.working import Working


def ask_gm(
    w: Working,
    awaited: msgspec.Struct,
    kind: str,
    choices: tuple[list[str], str],
    command: str,
    resume: dict[str, Any],
    question: str,
) -> None:
    """Emit what is awaited, then the reaction the GM answers (`choices`: the options and the default), with
    `respond` or the `command` that records it."""
    options, default = choices
    w.emit(awaited)
    w.emit(
        ReactionRequested(
            id="",
            kind=kind,
            combatant=None,
            asked_of="gm",
            options=list(options),
            default=default,
            allows=[command],
            resume=resume,
            question=question,
        )
    )
