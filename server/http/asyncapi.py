"""The websocket contract as an AsyncAPI 3.0 document (served at GET /asyncapi.json)."""

from __future__ import annotations

from typing import Any

_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_SEQ = {"type": "integer", "minimum": 0}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


def _const(value: str) -> dict[str, Any]:
    return {"type": "string", "const": value}


_ENVELOPE = _obj(
    ["stream", "seq", "type", "data", "actor", "command_id", "ts", "prev_hash", "hash"],
    stream={"type": "string"},
    seq={"type": "integer", "minimum": 1},
    type={"type": "string"},
    data={"type": "object"},
    actor={"type": "string", "description": "gm, seat:<id> or system"},
    command_id={"type": "string"},
    ts={"type": "string", "description": "YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC)"},
    prev_hash=_HASH,
    hash=_HASH,
)

_LOG_ENTRY = _obj(
    ["seq", "turn", "type", "actor", "ts", "hash", "text"],
    seq={"type": "integer"},
    turn={"type": "integer", "description": "0 before the first turn"},
    type={"type": "string"},
    actor={"type": "string"},
    ts={"type": "string"},
    hash=_HASH,
    text={"type": "string", "description": "one human sentence"},
)

_MESSAGES: dict[str, tuple[str, dict[str, Any]]] = {
    # client -> server
    "auth": (
        "First message on a connection without a token (within 5 s).",
        _obj(["op", "token"], op=_const("auth"), token={"type": "string"}),
    ),
    "subscribe": (
        "The one subscription of this connection. `after` = the last seq the client has.",
        _obj(
            ["op", "projection"],
            op=_const("subscribe"),
            projection={"type": "string", "enum": ["events", "state", "log"]},
            after={**_SEQ, "default": 0},
        ),
    ),
    "clientPing": ("Answered by {type: pong}.", _obj(["op"], op=_const("ping"))),
    # server -> client
    "event": (
        "One envelope (events projection), in seq order, nothing missed or repeated.",
        _obj(["type", "seq", "event"], type=_const("event"), seq=_SEQ, event=_ENVELOPE),
    ),
    "caughtUp": (
        "The catch-up is over: live frames follow. seq/hash of the last event sent (or `after`).",
        _obj(["type", "seq", "hash"], type=_const("caught_up"), seq=_SEQ, hash=_HASH),
    ),
    "snapshot": (
        "The projection at the head (state: the state object; log: the list of entries).",
        _obj(
            ["type", "seq", "data"],
            type=_const("snapshot"),
            seq=_SEQ,
            data={"oneOf": [{"type": "object"}, {"type": "array", "items": _LOG_ENTRY}]},
        ),
    ),
    "state": (
        "The whole state after event `seq`.",
        _obj(["type", "seq", "data"], type=_const("state"), seq=_SEQ, data={"type": "object"}),
    ),
    "log": (
        "New log entries; `seq` is the last event they cover.",
        _obj(
            ["type", "seq", "entries"],
            type=_const("log"),
            seq=_SEQ,
            entries={"type": "array", "items": _LOG_ENTRY},
        ),
    ),
    "logReset": (
        "After a void: the whole log as of `seq`, replacing what the client has.",
        _obj(
            ["type", "seq", "data"],
            type=_const("log_reset"),
            seq=_SEQ,
            data={"type": "array", "items": _LOG_ENTRY},
        ),
    ),
    "ping": ("Sent every 25 s; no reply needed.", _obj(["type"], type=_const("ping"))),
    "pong": ("The answer to {op: ping}.", _obj(["type"], type=_const("pong"))),
    "error": (
        "bad_request keeps the socket open; bad_position closes 4400, lagging 4008, unauthenticated 4401.",
        _obj(
            ["type", "code", "message", "details"],
            type=_const("error"),
            code={
                "type": "string",
                "enum": [
                    "bad_request",
                    "bad_position",
                    "lagging",
                    "unauthenticated",
                    "rate_limited",
                    "internal",
                ],
            },
            message={"type": "string"},
            details={"type": "object"},
        ),
    ),
}

_CLIENT = ("auth", "subscribe", "clientPing")


def asyncapi_document() -> dict[str, Any]:
    """The AsyncAPI 3.0 description of /encounters/{id}/ws."""
    messages = {
        name: {"name": name, "summary": summary, "contentType": "application/json", "payload": payload}
        for name, (summary, payload) in _MESSAGES.items()
    }
    channel_messages = {name: {"$ref": f"#/components/messages/{name}"} for name in _MESSAGES}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Tussle websocket",
            "version": "1.0.0",
            "description": (
                "One subscription per connection to an encounter's events, state or log. Auth: "
                "`Authorization: Bearer`, `?token=`, or a first message {op: auth} within 5 s. Close codes: "
                "1000 after EncounterClosed, 4008 lagging (the bounded send queue is full), 4400 bad_position "
                "(after beyond the head), 4401 unauthenticated or token revoked. See docs/websocket.md."
            ),
        },
        "defaultContentType": "application/json",
        "channels": {
            "encounter": {
                "address": "/encounters/{id}/ws",
                "parameters": {"id": {"description": "the encounter id"}},
                "messages": channel_messages,
                "bindings": {"ws": {"query": _obj([], token={"type": "string"}), "bindingVersion": "0.1.0"}},
            }
        },
        "operations": {
            "sendToServer": {
                "action": "receive",
                "summary": "What a client sends.",
                "channel": {"$ref": "#/channels/encounter"},
                "messages": [{"$ref": f"#/channels/encounter/messages/{m}"} for m in _CLIENT],
            },
            "receiveFromServer": {
                "action": "send",
                "summary": "What the server sends, per projection in the order of docs/websocket.md.",
                "channel": {"$ref": "#/channels/encounter"},
                "messages": [
                    {"$ref": f"#/channels/encounter/messages/{m}"} for m in _MESSAGES if m not in _CLIENT
                ],
            },
        },
        "components": {"messages": messages, "schemas": {"envelope": _ENVELOPE, "logEntry": _LOG_ENTRY}},
    }
