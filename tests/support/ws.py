"""Websocket helpers for tests: connect to an encounter's /ws, subscribe, read frames."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from tests.support.client import Encounter

WAIT = 30.0  # a generous bound so a broken server fails the test instead of hanging it


async def connect(enc: Encounter, token: str | None = None, *, query: str = "",
                  header: bool = True) -> aiohttp.ClientWebSocketResponse:
    headers = {"Authorization": f"Bearer {token or enc.gm_token}"} if header else {}
    return await enc.client.session.ws_connect(f"{enc.client.base_url}{enc.path}/ws{query}", headers=headers,
                                               autoping=True)


async def subscribe(enc: Encounter, projection: str, after: int = 0,
                    token: str | None = None) -> aiohttp.ClientWebSocketResponse:
    ws = await connect(enc, token)
    await ws.send_json({"op": "subscribe", "projection": projection, "after": after})
    return ws


async def frame(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The next JSON frame, skipping pings; a close is returned as {"closed": code}."""
    while True:
        msg = await ws.receive(timeout=WAIT)
        if msg.type == aiohttp.WSMsgType.TEXT:
            data = json.loads(msg.data)
            if data.get("type") == "ping":
                continue
            return data
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED):
            return {"closed": ws.close_code}
        if msg.type == aiohttp.WSMsgType.ERROR:
            return {"closed": ws.close_code, "error": str(msg.data)}


async def until(ws: aiohttp.ClientWebSocketResponse, kind: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Frames up to the first of type `kind` (returned apart)."""
    before = []
    while True:
        f = await frame(ws)
        if f.get("type") == kind or "closed" in f:
            return before, f
        before.append(f)


async def events_until_seq(ws: aiohttp.ClientWebSocketResponse, last: int) -> list[dict[str, Any]]:
    """`event` frames up to and including seq `last` (other frames must not come in between)."""
    out = []
    while not out or out[-1]["seq"] < last:
        f = await frame(ws)
        if f.get("type") == "caught_up":
            continue
        assert f.get("type") == "event", f
        out.append(f)
    return out
