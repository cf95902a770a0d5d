"""CORS for browser clients on other origins (`tussle serve --cors-origin ORIGIN`, repeatable; `*` for any).

Tokens travel in the Authorization header, never in cookies, so credentials are not allowed and a
wildcard is safe to offer. Without `--cors-origin` the server sends no CORS headers at all.
Preflights are answered by a middleware (before routing would call them a 405); the headers of real
responses are added when they are prepared, which covers streamed NDJSON and websocket upgrades too.
"""

from __future__ import annotations

from aiohttp import web

ALLOW_METHODS = "GET, POST, PATCH, DELETE, OPTIONS"
ALLOW_HEADERS = "Authorization, Content-Type, Accept"
EXPOSE_HEADERS = "Retry-After"
MAX_AGE_S = "600"


class CorsPolicy:
    """Which origins may call this server from a browser."""

    def __init__(self, origins: list[str]):
        self.any = "*" in origins
        self.origins = frozenset(o.rstrip("/") for o in origins if o != "*")

    def allow_origin(self, origin: str | None) -> str | None:
        """The Access-Control-Allow-Origin value for this request's Origin, or None."""
        if not origin:
            return None
        if self.any:
            return "*"
        return origin if origin in self.origins else None


CORS = web.AppKey("cors", CorsPolicy)


def preflight_answer(request: web.Request) -> web.Response | None:
    """The 204 to a CORS preflight from an allowed origin; None for anything else (it goes on)."""
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        allowed = request.app[CORS].allow_origin(request.headers.get("Origin"))
        if allowed:
            return web.Response(
                status=204,
                headers={
                    "Access-Control-Allow-Origin": allowed,
                    "Access-Control-Allow-Methods": ALLOW_METHODS,
                    "Access-Control-Allow-Headers": ALLOW_HEADERS,
                    "Access-Control-Max-Age": MAX_AGE_S,
                    "Vary": "Origin",
                },
            )
    return None


async def add_cors_headers(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: mark a response readable by an allowed origin."""
    allowed = request.app[CORS].allow_origin(request.headers.get("Origin"))
    if allowed and "Access-Control-Allow-Origin" not in response.headers:
        response.headers["Access-Control-Allow-Origin"] = allowed
        response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        response.headers.add("Vary", "Origin")
