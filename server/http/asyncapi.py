"""The websocket contract as an AsyncAPI 3.0 document (served at GET /asyncapi.json).

Every payload and every object in it is a titled schema in components (generators name their models by
title: no AnonymousSchema); an `event` frame's envelope is /openapi.json's typed `Envelope`, the same
schemas (issue 30 item 3), in AsyncAPI's own schema dialect."""

from __future__ import annotations

import weakref
from typing import Any

from rules.registry import Registry
from server.http.openapi import build_openapi
from server.http.openapi_generators import reachable

_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_SEQ = {"type": "integer", "minimum": 0}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


def _const(value: str) -> dict[str, Any]:
    return {"type": "string", "const": value}


_ENVELOPE = {"$ref": "#/components/schemas/Envelope"}
# /openapi.json's EncounterState, `offers` optional: a command's frames but the last leave it out.
_FRAME_STATE = {"$ref": "#/components/schemas/FrameState"}

_LOG_ENTRY = _obj(
    ["seq", "turn", "type", "actor", "ts", "hash", "text"],
    seq={"type": "integer"},
    turn={"type": "integer", "description": "0 before the first turn"},
    type={"type": "string"},
    actor={"type": "string"},
    ts={"type": "string"},
    hash=_HASH,
    text={"type": "string", "description": "one human sentence"},
    aside={
        "type": "boolean",
        "description": "true: bookkeeping another sentence already says (the Markdown and BBCode exports "
        "leave it out); absent: false",
    },
)
_LOG_ENTRY["title"] = "LogEntry"
_LOG_REF = {"$ref": "#/components/schemas/LogEntry"}

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
            data={
                "oneOf": [
                    {**_FRAME_STATE, "description": "GET /state's state"},
                    {"type": "array", "title": "LogSnapshot", "items": _LOG_REF},
                ]
            },
        ),
    ),
    "state": (
        "The whole state after event `seq`. Of a command's several events only the last frame carries"
        " `data.offers`; the others have no `offers` and say in `offers_at` the seq whose frame has them.",
        _obj(
            ["type", "seq", "data"],
            type=_const("state"),
            seq=_SEQ,
            offers_at={
                **_SEQ,
                "description": "present when `data` has no offers: the seq whose frame has them",
            },
            data={
                **_FRAME_STATE,
                "description": "GET /state's state (`offers` only in a command's last frame)",
            },
        ),
    ),
    "log": (
        "New log entries; `seq` is the last event they cover.",
        _obj(
            ["type", "seq", "entries"],
            type=_const("log"),
            seq=_SEQ,
            entries={"type": "array", "items": _LOG_REF},
        ),
    ),
    "logReset": (
        "After a void: the whole log as of `seq`, replacing what the client has.",
        _obj(
            ["type", "seq", "data"],
            type=_const("log_reset"),
            seq=_SEQ,
            data={"type": "array", "items": _LOG_REF},
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
            details={"type": "object", "title": "ErrorFrameDetails"},
        ),
    ),
}

_CLIENT = ("auth", "subscribe", "clientPing")

_POSITION = {
    "type": "integer",
    "minimum": 0,
    "description": "the event's place in the server's feed (commit order, every encounter): resume after it",
}
# The firehose's own frames (docs/websocket.md "The firehose"); auth, pings, pongs and errors are the
# encounter channel's.
_FIREHOSE_MESSAGES: dict[str, tuple[str, dict[str, Any]]] = {
    "firehoseSubscribe": (
        "The one subscription of a firehose connection: events only. `after` = the last position the client has.",
        _obj(
            ["op"],
            op=_const("subscribe"),
            projection={"type": "string", "enum": ["events"], "default": "events"},
            after={**_POSITION, "default": 0},
        ),
    ),
    "firehoseEvent": (
        "One envelope of an encounter this token reads, tagged with it, in position order; per encounter in "
        "seq order, nothing missed or repeated while it may read it.",
        _obj(
            ["type", "position", "encounter", "seq", "event"],
            type=_const("event"),
            position=_POSITION,
            encounter={"type": "string", "description": "the encounter's id"},
            seq=_SEQ,
            event=_ENVELOPE,
        ),
    ),
    "firehoseCaughtUp": (
        "The catch-up is over: live frames follow. The last position read (or `after`).",
        _obj(["type", "position"], type=_const("caught_up"), position=_POSITION),
    ),
}
_FIREHOSE_CLIENT = ("auth", "firehoseSubscribe", "clientPing")
_FIREHOSE_SERVER = ("firehoseEvent", "firehoseCaughtUp", "ping", "pong", "error")


_DOCS: weakref.WeakKeyDictionary[Registry, dict[str, Any]] = weakref.WeakKeyDictionary()


def _frame_name(message: str) -> str:
    return message[0].upper() + message[1:] + "Frame"


def _dialect(value: Any) -> Any:
    """An OpenAPI 3.1 schema in AsyncAPI's (JSON Schema draft 7 based): its discriminator is the property's
    name, and a tuple is `items` as a list."""
    if isinstance(value, dict):
        out = {k: _dialect(v) for k, v in value.items()}
        if isinstance(out.get("discriminator"), dict):
            out["discriminator"] = out["discriminator"]["propertyName"]
        if "prefixItems" in out:
            out["items"] = out.pop("prefixItems")
        return out
    if isinstance(value, list):
        return [_dialect(v) for v in value]
    return value


def _titled(value: Any, name: str) -> None:
    """Every object, enum or union schema without a title gets one from where it is (EncounterCreatedOptions,
    CombatantJoinedItemsItem), and that as its parser id: generators name a model by it, else
    AnonymousSchema_N."""
    if isinstance(value, dict):
        if "title" not in value and (
            value.get("type") == "object" or {"enum", "anyOf", "oneOf"} & value.keys()
        ):
            value["title"] = name
        if "title" in value:
            # The parser's id for it (which generators name models by), else <anonymous-schema-N>.
            value.setdefault("x-parser-schema-id", value["title"])
        name = value.get("title", name)
        for key, sub in (value.get("properties") or {}).items():
            _titled(sub, name + "".join(w.capitalize() for w in key.split("_")))
        for key in ("items", "additionalProperties"):
            _titled(value.get(key), name + ("Item" if key == "items" else "Value"))
        for key in ("oneOf", "anyOf", "allOf", "items"):
            if isinstance(value.get(key), list):
                for i, sub in enumerate(value[key]):
                    _titled(sub, f"{name}{i}")


def _openapi_schemas(registry: Registry) -> dict[str, Any]:
    """/openapi.json's event schemas (the envelope unions and all they refer to) and its EncounterState,
    which state and snapshot frames carry as `FrameState` (the same, with `offers` not required): a bot
    generated from this document gets typed states, not bare objects."""
    schemas = build_openapi(registry)["components"]["schemas"]
    roots = ["Envelope", "EncounterState", *(n for n in schemas if n.endswith("Envelope"))]
    out = {
        n: _dialect(schemas[n])
        for n in sorted(reachable(schemas, [{"$ref": f"#/components/schemas/{r}"} for r in roots]))
    }
    state = out["EncounterState"]
    out["FrameState"] = {
        **state,
        "title": "FrameState",
        "required": [r for r in state.get("required", []) if r != "offers"],
    }
    return out


def asyncapi_document(registry: Registry) -> dict[str, Any]:
    """The AsyncAPI 3.0 description of /encounters/{id}/ws for these rulesets (built once per registry)."""
    if registry not in _DOCS:
        _DOCS[registry] = _document(registry)
    return _DOCS[registry]


def _document(registry: Registry) -> dict[str, Any]:
    every = {**_MESSAGES, **_FIREHOSE_MESSAGES}
    payloads = {name: {**payload, "title": _frame_name(name)} for name, (_, payload) in every.items()}
    schemas = {
        **{_frame_name(n): p for n, p in payloads.items()},
        "LogEntry": _LOG_ENTRY,
        **_openapi_schemas(registry),
    }
    for name, schema in schemas.items():
        _titled(schema, name)
    messages = {
        name: {
            "name": name,
            "title": name,
            "summary": summary,
            "contentType": "application/json",
            "payload": {"$ref": f"#/components/schemas/{_frame_name(name)}"},
        }
        for name, (summary, _) in every.items()
    }
    channel_messages = {name: {"$ref": f"#/components/messages/{name}"} for name in _MESSAGES}
    firehose_messages = {
        name: {"$ref": f"#/components/messages/{name}"} for name in (*_FIREHOSE_CLIENT, *_FIREHOSE_SERVER)
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Tussle websocket",
            "version": "1.0.0",
            "description": (
                "One subscription per connection to an encounter's events, state or log. Auth: "
                "`Authorization: Bearer`, `?token=`, or a first message {op: auth} within 5 s. Close codes: "
                "1000 after EncounterClosed, 4008 lagging (the bounded send queue is full), 4400 bad_position "
                "(after beyond the head), 4401 unauthenticated or token revoked. The firehose (/firehose) is one "
                "subscription to the events of every encounter a server-level reader token reads, resumed by one "
                "global position. See docs/websocket.md."
            ),
        },
        "defaultContentType": "application/json",
        "channels": {
            "encounter": {
                "address": "/encounters/{id}/ws",
                "parameters": {"id": {"description": "the encounter id"}},
                "messages": channel_messages,
                "bindings": {
                    "ws": {
                        "query": {**_obj([], token={"type": "string"}), "title": "WebsocketQuery"},
                        "bindingVersion": "0.1.0",
                    }
                },
            },
            "firehose": {
                "address": "/firehose",
                "description": "The events of every public encounter and of the private ones whose GM granted "
                "this firehose token (POST /firehose-tokens; POST /encounters/{id}/firehose-grants), each frame "
                "tagged with its encounter; bounded queue and 4008 lagging as on an encounter's channel.",
                "messages": firehose_messages,
                "bindings": {
                    "ws": {
                        "query": {**_obj([], token={"type": "string"}), "title": "FirehoseQuery"},
                        "bindingVersion": "0.1.0",
                    }
                },
            },
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
            "sendToFirehose": {
                "action": "receive",
                "summary": "What a firehose client sends.",
                "channel": {"$ref": "#/channels/firehose"},
                "messages": [{"$ref": f"#/channels/firehose/messages/{m}"} for m in _FIREHOSE_CLIENT],
            },
            "receiveFromFirehose": {
                "action": "send",
                "summary": "What the firehose sends: catch-up events, caught_up, then live events.",
                "channel": {"$ref": "#/channels/firehose"},
                "messages": [{"$ref": f"#/channels/firehose/messages/{m}"} for m in _FIREHOSE_SERVER],
            },
        },
        "components": {
            "messages": messages,
            "schemas": schemas,
        },
    }
