"""Reaction deadlines (`reaction_timeout_s`): which a command sets and clears, and the default answer's id.

A deadline is a store row (events/store/port.py `DeadlineRow`) written in the transaction of the
ReactionRequested that starts the wait and deleted in the one that ends it (its answer, its
cancellation, a void of the request, or the close), so it survives restarts and cache evictions.
Every server process polls the due ones (`Encounters.answer_overdue`); the default answer's
command_id is made from the reaction alone, so when several processes answer the same reaction the
store's (stream, command_id) uniqueness lets exactly one append.

With `reminder_before_s` a second row, keyed `remind:<reaction>`, falls due that long before the
deadline; it is set and cleared with the deadline's, and the sweep turns it into a `reminder` notice
(`Encounters.remind`) whose delivery ids are made from the reaction and its deadline, so a reminder
written twice (a restart, two processes) is stored, and delivered, once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from events.envelope import NewEvent, timestamp
from events.store.port import DeadlineRow

_ENDS = ("ReactionAnswered", "ReactionCancelled")
REMIND = "remind:"


def reminder_of(reaction: str) -> str:
    """The deadline row that reminds the seat of `reaction` before its deadline."""
    return REMIND + reaction


def reminded(row: str) -> str | None:
    """The reaction a deadline row reminds of; None for a reaction's own deadline."""
    return row[len(REMIND) :] if row.startswith(REMIND) else None


def deadline_changes(
    state: dict[str, Any], new: list[NewEvent], voided_reactions: list[str], now: dt.datetime | None = None
) -> tuple[list[DeadlineRow], list[str]]:
    """The deadlines a command's events set and the reactions whose deadlines they clear, on `state`
    as it was before them. A reaction asked and answered within one command (a standing order) gets none."""
    requested = [ne.data["id"] for ne in new if ne.type == "ReactionRequested"]
    ended = set(voided_reactions) | {ne.data["id"] for ne in new if ne.type in _ENDS}
    if any(ne.type == "EncounterClosed" for ne in new):
        ended |= {p["id"] for p in state["pending"]} | set(requested)
    timeout = state["options"].get("reaction_timeout_s")
    if not timeout:
        return [], sorted(ended | {reminder_of(r) for r in ended})
    now = now or dt.datetime.now(dt.UTC)
    due = timestamp(now + dt.timedelta(seconds=timeout))
    waiting = [rid for rid in requested if rid not in ended]
    set_now = [DeadlineRow(rid, due) for rid in waiting]
    lead = state["options"].get("reminder_before_s")
    if lead and lead < timeout:  # a lead as long as the wait would remind with the question itself
        remind_at = timestamp(now + dt.timedelta(seconds=timeout - lead))
        set_now += [DeadlineRow(reminder_of(rid), remind_at) for rid in waiting]
    return set_now, sorted(ended | {reminder_of(r) for r in ended})


def timeout_command_id(reaction: str) -> str:
    """The command_id of the server's default answer to `reaction` (the same in every process)."""
    return f"timeout-{hashlib.sha256(reaction.encode()).hexdigest()[:24]}"
