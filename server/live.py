"""Live and audit routes (websocket, log, audit, verify): registered by `setup`."""

from __future__ import annotations

from aiohttp import web


def setup(app: web.Application) -> None:
    """Add the live and audit routes to the app."""
