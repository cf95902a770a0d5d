"""Operations: OpenAPI, metrics, request logs, limits, CORS — registered by `setup`."""

from __future__ import annotations

from aiohttp import web


def setup(app: web.Application) -> None:
    """Add the operations middlewares and routes to the app."""
