"""What one request was, for the log line and the metrics: route, status, command type, seq, role, latency.

The log names the path only — never the query string (where `?token=` may travel), a header, a body
(where seeds and tokens travel) or a token. aiohttp's own access log is off (`access_log=None`).
"""

from __future__ import annotations

from typing import Any

import msgspec
from aiohttp import web

from server.http.context import COMMAND_FACTS, ERROR_CODE, PRINCIPAL
from server.ops.logging import line

COMMANDS_ROUTE = "/encounters/{id}/commands"


class _CommandType(msgspec.Struct):
    type: Any = None


class _Appended(msgspec.Struct):
    seq: int | None = None


class _ErrorCode(msgspec.Struct):
    code: str = "error"


class _ErrorBody(msgspec.Struct):
    error: _ErrorCode | None = None


class RequestFacts(msgspec.Struct):
    """One request as the operator sees it."""

    method: str
    path: str
    route: str
    status: int
    latency_s: float
    remote: str | None
    encounter: str | None = None
    role: str | None = None
    command_type: str | None = None
    outcome: str | None = None  # for commands: appended | duplicate | the error code
    seq: int | None = None


def route_of(request: web.Request) -> str:
    """The route template (`/encounters/{id}/commands`), or `unmatched`: bounded label values."""
    resource = getattr(request.match_info.route, "resource", None)
    return resource.canonical if resource is not None else "unmatched"


async def facts_of(
    request: web.Request, response: web.StreamResponse, latency_s: float, known_command_types: Any
) -> RequestFacts:
    """Gather the facts of a finished request. Command type and outcome are read back from the body
    the handler already read and the response it made; unknown types are logged as `unknown`."""
    route = route_of(request)
    who = request.get(PRINCIPAL)
    facts = RequestFacts(
        request.method,
        request.path,
        route,
        response.status,
        latency_s,
        request.remote,
        encounter=request.match_info.get("id"),
        role=who.role if who is not None else None,
    )
    if (
        route == COMMANDS_ROUTE
        and request.method == "POST"
        and response.status not in (408, 413, 429)  # bodies never read whole: nothing to read back
    ):
        told = request.get(COMMAND_FACTS)
        if told is not None:  # the handler's facts: no body decoded again
            ctype, seq = told
            facts.command_type = (
                ctype if isinstance(ctype, str) and ctype in known_command_types else "unknown"
            )
            facts.outcome = "appended" if response.status == 201 else "duplicate"
            facts.seq = seq
            return facts
        facts.command_type = await _command_type(request, known_command_types)
        code = request.get(ERROR_CODE)
        body = getattr(response, "body", None)
        if code is not None and response.status not in (200, 201):
            facts.outcome = code
        elif isinstance(body, bytes | bytearray):
            if response.status in (200, 201):
                facts.outcome = "appended" if response.status == 201 else "duplicate"
                facts.seq = _decode(body, _Appended).seq
            else:
                err = _decode(body, _ErrorBody).error
                facts.outcome = err.code if err is not None else "error"
    return facts


async def _command_type(request: web.Request, known: Any) -> str:
    try:
        raw = await request.read()  # already read by the handler: aiohttp returns its cached bytes
        ctype = msgspec.json.decode(raw, type=_CommandType).type
    except Exception:  # noqa: BLE001 - a body that was not JSON has no type
        return "unknown"
    return ctype if isinstance(ctype, str) and ctype in known else "unknown"


def _decode(body: bytes | bytearray, kind: Any) -> Any:
    try:
        return msgspec.json.decode(body, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return kind()


def log_request(facts: RequestFacts) -> None:
    """One JSON log line per request."""
    fields: dict[str, Any] = {
        "method": facts.method,
        "path": facts.path,
        "route": facts.route,
        "status": facts.status,
        "latency_ms": round(facts.latency_s * 1000, 3),
        "remote": facts.remote,
    }
    for name in ("encounter", "role", "command_type", "outcome", "seq"):
        value = getattr(facts, name)
        if value is not None:
            fields[name] = value
    line("error" if facts.status >= 500 else "info", "request", fields)
