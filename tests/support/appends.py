"""Appends for store tests: a creation, a command of N notes, and reading the chain and the feed back."""

from __future__ import annotations

from typing import Any

from events.envelope import NewEvent, first_broken_link
from events.store.port import Append, SeedRow, Store, StreamInfo, TokenRow


def creation(
    stream: str,
    *,
    public: bool = False,
    seeds: list[SeedRow] | None = None,
    tokens: list[TokenRow] | None = None,
    identity: str = "create-body",
) -> Append:
    data = {
        "name": f"Fight {stream}",
        "ruleset": "freeform",
        "commitment": seeds[0].commitment if seeds else None,
    }
    return Append(
        stream,
        0,
        f"create-{stream}",
        identity,
        "gm",
        [NewEvent("EncounterCreated", data)],
        seeds=seeds or [],
        tokens=tokens or [],
        create=StreamInfo(stream, f"Fight {stream}", "freeform", public, 0, "", False),
    )


def command(
    stream: str,
    expected: int,
    command_id: str,
    *,
    n: int = 1,
    actor: str = "gm",
    identity: str | None = None,
    **extra: Any,
) -> Append:
    events = [NewEvent("NotePosted", {"text": f"{command_id} #{i}", "n": i}) for i in range(n)]
    return Append(stream, expected, command_id, identity or f"body-{command_id}", actor, events, **extra)


async def created(store: Store, stream: str, **kw: Any) -> None:
    result = await store.append(creation(stream, **kw))
    assert [e.seq for e in result.events] == [1]


async def read_feed(store: Store, after: int = 0) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    while True:
        batch = await store.read_all(after, limit=100)
        if not batch:
            return out
        out += batch
        after = batch[-1][0]


def assert_chain(events: list[Any]) -> None:
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert first_broken_link(events) is None
