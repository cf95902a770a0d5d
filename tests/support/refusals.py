"""How a test checks a refusal over HTTP: the status and the phrases of its message, and that nothing
was appended (the encounter still replays to the live state)."""

from __future__ import annotations

from typing import Any


def refused(r: Any, status: int, *phrases: str) -> None:
    """The response is a refusal with this status whose message holds every phrase."""
    assert r.status == status, r.body
    for phrase in phrases:
        assert phrase in r.body["error"]["message"], r.body["error"]["message"]


async def unchanged(enc: Any, before: dict[str, Any]) -> None:
    """Nothing was appended since the state `before`, and replay still equals live."""
    assert (await enc.state())["seq"] == before["seq"]
    await enc.replay_matches_live()
