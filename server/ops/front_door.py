"""The one middleware every request passes (issue 32 item 1): one pass where six middlewares ran.

In order: the real client behind a trusted proxy (forwarded.py); the clock starts; a CORS preflight is
answered (cors.py); a NUL in the URL is a 400 (server/http/input_checks.py); a request over its rate is
a 429 before any work (rate_limits.py); the handler; whatever it raised becomes the one error shape
(server/http/errors.py), and a token's answer teaches the rate limits; then one log line and the
metrics, from the request's facts (request_log.py), whatever happened inside.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from server.encounters.service_errors import ServiceError
from server.http.context import ENCOUNTERS
from server.http.errors import error_answer, status_of
from server.http.input_checks import check_url
from server.ops.cors import preflight_answer
from server.ops.forwarded import Network, forwarded
from server.ops.metrics import METRICS
from server.ops.rate_limits import learn, rate_limited
from server.ops.request_log import COMMANDS_ROUTE, facts_of, log_request

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def front_door(networks: tuple[Network, ...]) -> Middleware:
    """The app's middleware; `networks`: the proxies whose X-Forwarded-For is believed."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if networks:
            request = forwarded(request, networks)
        started = time.perf_counter()
        response, token_key = _refusal(request)
        if response is None:
            # Awaited here rather than in a helper coroutine: a websocket's handler lasts as long as its
            # connection, and so does every frame below it (idle subscribers' memory, issue 32 item 3).
            try:
                response = await handler(request)
            except Exception as exc:
                if token_key is not None and isinstance(exc, ServiceError):
                    learn(request, token_key, status_of(exc))
                response = error_answer(request, exc)
            else:
                if token_key is not None:
                    learn(request, token_key, response.status)
        await _observe(request, response, time.perf_counter() - started)
        return response

    return middleware


def _refusal(request: web.Request) -> tuple[web.StreamResponse | None, str | None]:
    """The answer given before the handler, if any (a preflight, a NUL in the URL, over the rate), and
    the key of the token whose answers teach the rate limits."""
    preflight = preflight_answer(request)
    if preflight is not None:
        return preflight, None
    try:
        check_url(request)
        return rate_limited(request)
    except Exception as exc:
        return error_answer(request, exc), None


async def _observe(request: web.Request, response: web.StreamResponse, elapsed: float) -> None:
    """One log line and the metrics of a finished request, by its final status."""
    facts = await facts_of(request, response, elapsed, request.app[ENCOUNTERS].registry.command_owner)
    m = request.app[METRICS]
    m.requests[(facts.route, facts.method, str(facts.status))] += 1
    if facts.route == COMMANDS_ROUTE and facts.outcome is not None:
        m.commands[(facts.command_type or "unknown", facts.outcome)] += 1
        if facts.outcome == "appended":
            m.append_seconds.observe(elapsed)
    log_request(facts)
