"""The event envelope and the hash chain (DESIGN.md "The event envelope")."""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, NamedTuple

import msgspec

from events.canonical import canonical

ZERO_HASH = "0" * 64


class Event(msgspec.Struct, frozen=True):
    """One stored event as every reader of an encounter sees it."""

    # The descriptions are for /openapi.json's Envelope; they change nothing stored.
    stream: Annotated[str, msgspec.Meta(description="The encounter's id.")]
    seq: Annotated[
        int, msgspec.Meta(description="The event's position in the stream (1 = EncounterCreated).")
    ]
    type: Annotated[
        str, msgspec.Meta(description="The event type (GET /rulesets/{id}: events, common_events).")
    ]
    data: Annotated[
        dict[str, Any], msgspec.Meta(description="The event's own fields, as its type defines them.")
    ]
    actor: Annotated[
        str,
        msgspec.Meta(
            description="Who sent the command: gm, seat:<id>, or system (the server, e.g. a reaction timed out)."
        ),
    ]
    command_id: Annotated[str, msgspec.Meta(description="The id of the command that appended it.")]
    ts: Annotated[
        str, msgspec.Meta(description="When it was appended: UTC, e.g. 2026-01-31T18:00:00.000000Z.")
    ]
    prev_hash: Annotated[str, msgspec.Meta(description="The previous event's hash (64 zeros for seq 1).")]
    hash: Annotated[str, msgspec.Meta(description="SHA-256 (hex) of prev_hash and the canonical event body.")]


def by_command(events: list[Event]) -> list[list[Event]]:
    """The events cut into commands: runs of contiguous events sharing a command_id."""
    out: list[list[Event]] = []
    for e in events:
        if out and out[-1][0].command_id == e.command_id:
            out[-1].append(e)
        else:
            out.append([e])
    return out


class NewEvent(msgspec.Struct, frozen=True):
    """An event decided but not yet appended: the store gives it seq, ts and hashes."""

    type: str
    data: dict[str, Any]


# The last whole second formatted by `timestamp`, and its text: every event of a busy second shares it.
_second: tuple[int, str] = (-1, "")


def timestamp(now: dt.datetime | None = None) -> str:
    """UTC time as the envelope's `ts` text: YYYY-MM-DDTHH:MM:SS.ffffffZ."""
    global _second
    if now is None:  # the clock datetime.now reads, floored to the microsecond as it does; 3x quicker
        second, micro = divmod(time.time_ns() // 1000, 1_000_000)
        cached = _second
        if cached[0] != second:
            cached = _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
        return f"{cached[1]}.{micro:06d}Z"
    return now.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(
    *, stream: str, seq: int, type: str, data: Any, actor: str, command_id: str, ts: str, prev_hash: str
) -> str:
    """sha256(prev_hash + C(body)) over exactly the eight body fields."""
    body = {
        "stream": stream,
        "seq": seq,
        "type": type,
        "data": data,
        "actor": actor,
        "command_id": command_id,
        "ts": ts,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(prev_hash.encode("ascii") + canonical(body)).hexdigest()


def seal(stream: str, seq: int, new: NewEvent, actor: str, command_id: str, ts: str, prev_hash: str) -> Event:
    """Give a decided event its place in the chain."""
    return sealed_with_data(stream, seq, new, actor, command_id, ts, prev_hash)[0]


def sealed_with_data(
    stream: str, seq: int, new: NewEvent, actor: str, command_id: str, ts: str, prev_hash: str
) -> tuple[Event, bytes]:
    """`seal`, with the canonical bytes of the event's data: encoded once, hashed inside the body (as
    raw JSON, the same bytes `canonical` writes there) and stored as they are."""
    data = canonical(new.data)
    body = {
        "stream": stream,
        "seq": seq,
        "type": new.type,
        "data": msgspec.Raw(data),
        "actor": actor,
        "command_id": command_id,
        "ts": ts,
        "prev_hash": prev_hash,
    }
    h = hashlib.sha256(prev_hash.encode("ascii") + canonical(body)).hexdigest()
    return Event(stream, seq, new.type, new.data, actor, command_id, ts, prev_hash, h), data


class Link(NamedTuple):
    """One event of a chain walk: the hash its prev_hash should be, and the hash its content has."""

    event: Event
    expected_prev: str
    content_hash: str

    @property
    def holds(self) -> bool:
        return self.event.prev_hash == self.expected_prev and self.event.hash == self.content_hash


def chain_links(events: Iterable[Event], prev_hash: str = ZERO_HASH) -> Iterator[Link]:
    """Walk the hash chain: each event with what its links should be (the one chain walk)."""
    for e in events:
        h = event_hash(
            stream=e.stream,
            seq=e.seq,
            type=e.type,
            data=e.data,
            actor=e.actor,
            command_id=e.command_id,
            ts=e.ts,
            prev_hash=e.prev_hash,
        )
        yield Link(e, prev_hash, h)
        prev_hash = e.hash


def first_broken_link(events: list[Event], prev_hash: str = ZERO_HASH) -> int | None:
    """The first seq whose prev_hash or hash does not match, or None when the chain holds."""
    return next((link.event.seq for link in chain_links(events, prev_hash) if not link.holds), None)
