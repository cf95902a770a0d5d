"""Operations: OpenAPI, metrics, request logs, limits, CORS — registered by `setup`.

Every request passes one middleware, server/ops/front_door.py (the real client, CORS preflights, the
rate limits, the one error shape, the request log and the metrics, in one pass); `setup` gives it the
state it reads.

Settings read from `app[SETTINGS]` (server/settings.py: the CLI builds them; make_app's defaults are
API.md's, except the request rates, which it leaves unlimited unless given): rate_commands,
rate_reads, rate_burst, max_ws, cors_origins. The roll caps go to the encounter service, which puts
them in each command's context.
"""

from __future__ import annotations

from aiohttp import web

from events.envelope import Event
from server.encounters.service_errors import NotFound
from server.http.context import ENCOUNTERS, SETTINGS, json_response
from server.http.openapi import build_openapi
from server.ops.cors import CORS, CorsPolicy, add_cors_headers
from server.ops.metrics import METRICS, Metrics, metrics_handler
from server.ops.rate_limits import RATE_LIMITS, rate_limits_from

OPENAPI = web.AppKey("openapi", dict)


async def openapi_handler(request: web.Request) -> web.Response:
    """GET /openapi.json, built on first use from the rulesets the app was started with."""

    cache = request.app[OPENAPI]
    if "doc" not in cache:
        cache["doc"] = build_openapi(request.app[ENCOUNTERS].registry)
    return json_response(cache["doc"])


async def ruleset_openapi_handler(request: web.Request) -> web.Response:
    """GET /rulesets/{id}/openapi.json: the same document for one ruleset's encounters, in which
    commands, stats, options and events are that ruleset's alone (the one a bot of that game generates
    from: no union to tell rulesets apart)."""
    rid = request.match_info["id"]
    rs = request.app[ENCOUNTERS].registry.get(rid)
    if rs is None:
        raise NotFound(
            f"there is no ruleset {rid!r} on this server (GET /rulesets lists them)", {"ruleset": rid}
        )
    cache = request.app[OPENAPI]
    if rid not in cache:
        cache[rid] = build_openapi(request.app[ENCOUNTERS].registry, rid)
    return json_response(cache[rid])


def _count_appended_events(app: web.Application) -> None:
    """Count every committed event: the live feed hears each commit exactly once."""

    metrics = app[METRICS]

    def count(stream: str, events: list[Event]) -> None:
        metrics.events_appended += len(events)

    app[ENCOUNTERS].feed.observe(count)


def setup(app: web.Application) -> None:
    """Add the operations middlewares and routes to the app."""

    settings = app[SETTINGS]
    app[METRICS] = Metrics()
    app[OPENAPI] = {}
    app[RATE_LIMITS] = rate_limits_from(settings)
    app[CORS] = CorsPolicy(list(settings.cors_origins))
    _count_appended_events(app)

    if settings.cors_origins:
        app.on_response_prepare.append(add_cors_headers)

    app.router.add_get("/metrics", metrics_handler)
    app.router.add_get("/openapi.json", openapi_handler)
    app.router.add_get("/rulesets/{id}/openapi.json", ruleset_openapi_handler)
