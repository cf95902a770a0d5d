"""What a test reads out of a command's answer (its `events`) and out of a roll: the helpers every
ruleset's HTTP tests had copied."""

from __future__ import annotations

from typing import Any


def types(body: dict[str, Any]) -> list[str]:
    """The event types of a command's response."""
    return [e["type"] for e in body["events"]]


def decided(data: dict[str, Any]) -> dict[str, Any]:
    """An event's data as the rules decided it: without the declaration its command's first event holds
    (rules/pipeline.py; the replay audit's, not the rules' to assert on)."""
    return {k: v for k, v in data.items() if k != "declaration"} if "declaration" in data else data


def data(body: dict[str, Any], event_type: str) -> list[dict[str, Any]]:
    """The data of the response's events of one type, in order."""
    return [decided(e["data"]) for e in body["events"] if e["type"] == event_type]


def mods(roll: dict[str, Any]) -> list[tuple[int, str]]:
    """A roll's modifiers as (value, reason)."""
    return [(m["value"], m["reason"]) for m in roll["modifiers"]]
