"""Websocket frames that carry events, each event encoded once (docs/websocket.md, docs/performance.md).

An event's JSON is made once, by `encoded_event`, and every frame that carries it (the encounter's
`event` frame, the firehose's tagged one) embeds those bytes as they are (msgspec.Raw); each frame is
in turn made once per event and the same bytes written to every subscriber (server/live/websocket.py
`Hub`, server/live/firehose.py `Firehose`). Events are immutable and known by their hash, so the
bytes of one are kept by hash for a while: a batch fanned out both per encounter and on the firehose
is encoded once.
"""

from __future__ import annotations

import collections
from typing import Any

import msgspec

from events.envelope import Event

_encode = msgspec.json.Encoder().encode

KEPT_EVENTS = 4096  # the last events encoded, by hash: enough for both fan-outs of a large batch
_kept: collections.OrderedDict[str, msgspec.Raw] = collections.OrderedDict()


def encoded_event(e: Event) -> msgspec.Raw:
    """The event's envelope as JSON, encoded at most once while it is among the last KEPT_EVENTS."""
    raw = _kept.get(e.hash)
    if raw is None:
        raw = _kept[e.hash] = msgspec.Raw(_encode(e))
        if len(_kept) > KEPT_EVENTS:
            _kept.popitem(last=False)
    return raw


def event_frame(e: Event) -> bytes:
    """An encounter websocket's `event` frame."""
    return _encode({"type": "event", "seq": e.seq, "event": encoded_event(e)})


def firehose_frame(position: int, e: Event) -> bytes:
    """The firehose's `event` frame: the event tagged with its encounter and its place in the server's feed."""
    return _encode(
        {
            "type": "event",
            "position": position,
            "encounter": e.stream,
            "seq": e.seq,
            "event": encoded_event(e),
        }
    )


def error_frame(code: str, message: str, details: dict[str, Any] | None = None) -> bytes:
    return _encode({"type": "error", "code": code, "message": message, "details": details or {}})


def caught_up_frame(seq: int, hash_: str) -> bytes:
    return _encode({"type": "caught_up", "seq": seq, "hash": hash_})


def firehose_caught_up_frame(position: int) -> bytes:
    return _encode({"type": "caught_up", "position": position})


PING = _encode({"type": "ping"})
PONG = _encode({"type": "pong"})
