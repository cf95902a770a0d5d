"""The error contract: every error, unknown routes and wrong methods included, as
`{"error": {"code", "message", "details"}}`."""

from __future__ import annotations

from typing import Any

import structlog
from aiohttp import web

from rules.state import EventNotFoldable
from server.encounters.service_errors import (
    BadRequest,
    Conflict,
    NotFound,
    NotPermitted,
    RateLimited,
    RuleRefusal,
    ServiceError,
    Unauthenticated,
)
from server.http.context import ENCOUNTERS, ERROR_CODE
from server.http.input_checks import BodyTooSlow, ClientGone

log = structlog.get_logger("tussle.errors")

# The one place a service error becomes an HTTP status (API.md's table of codes).
STATUS_OF: dict[type[ServiceError], int] = {
    BadRequest: 400,
    Unauthenticated: 401,
    NotPermitted: 403,
    NotFound: 404,
    Conflict: 409,
    RuleRefusal: 422,
    RateLimited: 429,
}


def status_of(exc: ServiceError) -> int:
    """The status of a service error: its kind's, or its nearest ancestor's; 500 for an unmapped kind (a bug)."""
    for kind in type(exc).__mro__:
        if kind in STATUS_OF:
            return STATUS_OF[kind]
    return 500


# What a 503 storage_unavailable asks a client to wait: a disk freed or a database back takes a person.
RETRY_AFTER_S = 5


def error_response(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> web.Response:
    return web.json_response(
        {"error": {"code": code, "message": message, "details": details or {}}},
        status=status,
        headers=headers,
    )


# The response whose status line went out, set when any response is prepared: an error after that can
# no longer be answered, only end the connection (an error answer then would be read as body bytes).
STARTED = web.RequestKey("started", web.StreamResponse)


async def note_started(request: web.BaseRequest, response: web.StreamResponse) -> None:
    """on_response_prepare: remember that this request's answer has begun."""
    request[STARTED] = response


def _broken(request: web.Request, started: web.StreamResponse, exc: Exception) -> web.StreamResponse:
    """End the connection of an answer that failed after its first byte, so the client sees a body cut
    short (a chunked body without its last chunk, or fewer bytes than its Content-Length), never a
    second status line inside it."""
    if isinstance(exc, ConnectionError):
        log.info("client went away during the answer", path=request.path)
    else:
        request[ERROR_CODE] = "internal"
        log.exception("failed after the answer began; connection closed", path=request.path)
    if request.transport is not None:
        request.transport.close()
    return started  # aiohttp's write_eof then meets the closed transport and writes nothing more


def error_answer(request: web.Request, exc: Exception) -> web.StreamResponse:
    """Every error in the one shape: its answer, or, once the answer has begun, the connection ended."""
    started = request.get(STARTED)
    if started is not None:
        return _broken(request, started, exc)
    return _answer_error(request, exc)


def _answer_error(request: web.Request, exc: Exception) -> web.StreamResponse:
    """The error answer to an exception raised before the answer began."""
    try:
        raise exc
    except ClientGone:
        request[ERROR_CODE] = "client_gone"
        return error_response(499, "client_gone", "the client closed the connection before its whole body")
    except BodyTooSlow as exc:
        request[ERROR_CODE] = "request_timeout"
        answer = error_response(408, "request_timeout", f"{exc}; nothing was done, send it again")
        answer.force_close()  # RFC 9110 15.5.9: the server closes the connection it timed out
        return answer
    except ServiceError as exc:
        request[ERROR_CODE] = exc.code
        return error_response(status_of(exc), exc.code, exc.message, exc.details)
    except EventNotFoldable as exc:
        # A stored event the fold cannot apply: a bug, answered loudly rather than with a wrong state.
        log.error(
            "event not foldable",
            path=request.path,
            stream=exc.stream,
            seq=exc.seq,
            type=exc.type,
            error=str(exc),
        )
        return error_response(500, "internal", f"{exc}; this is a bug", {"seq": exc.seq, "type": exc.type})
    except web.HTTPMethodNotAllowed as exc:
        allowed = sorted(exc.allowed_methods)
        return error_response(
            405,
            "method_not_allowed",
            f"{request.method} is not allowed on {request.path}; use {', '.join(allowed)}",
            {"allowed": allowed},
            headers={"Allow": ", ".join(allowed)},
        )
    except web.HTTPNotFound:
        return error_response(404, "not_found", f"there is nothing at {request.path}")
    except web.HTTPRequestEntityTooLarge as exc:
        return error_response(
            413, "too_large", f"the body is larger than the server accepts ({exc.text or ''})".strip()
        )
    except web.HTTPException as exc:
        if exc.status == 413:
            return error_response(413, "too_large", "the body is larger than the server accepts")
        if exc.status >= 400:
            return error_response(
                exc.status, "bad_request" if exc.status == 400 else "error", exc.reason or "error"
            )
        raise
    except Exception as exc:
        why = request.app[ENCOUNTERS].store.unavailable(exc)
        if why is not None:
            log.warning("storage unavailable", path=request.path, error=why)
            return error_response(
                503,
                "storage_unavailable",
                f"{why}; nothing was written, try again later",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        log.exception("unhandled error", path=request.path)
        return error_response(500, "internal", "the server failed on this request; this is a bug")
