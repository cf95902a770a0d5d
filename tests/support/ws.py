"""Websocket helpers for tests: connect to an encounter's /ws, subscribe, read frames."""

from __future__ import annotations

import base64
import json
import os
import socket
from typing import Any

import aiohttp

from tests.support.client import Encounter

WAIT = 30.0  # a generous bound so a broken server fails the test instead of hanging it


async def connect(
    enc: Encounter,
    token: str | None = None,
    *,
    query: str = "",
    header: bool = True,
    max_msg_size: int = 4 * 1024 * 1024,
) -> aiohttp.ClientWebSocketResponse:
    headers = {"Authorization": f"Bearer {token or enc.gm_token}"} if header else {}
    return await enc.client.session.ws_connect(
        f"{enc.client.base_url}{enc.path}/ws{query}",
        headers=headers,
        autoping=True,
        max_msg_size=max_msg_size,
    )


async def subscribe(
    enc: Encounter,
    projection: str,
    after: int = 0,
    token: str | None = None,
    max_msg_size: int = 4 * 1024 * 1024,
) -> aiohttp.ClientWebSocketResponse:
    ws = await connect(enc, token, max_msg_size=max_msg_size)
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


async def until(
    ws: aiohttp.ClientWebSocketResponse, kind: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
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


def stalled_client(
    host: str, port: int, path: str, token: str, first: dict[str, Any], receive_buffer: int = 4096
) -> socket.socket:
    """A real websocket client (RFC 6455 handshake, masked frames) that sends `first` and then never
    reads: its kernel receive buffer is tiny, so what the server writes to it backs up at once."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)  # before connect: sets the window
    s.settimeout(WAIT)
    s.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: nothing after the handshake is read
        byte = s.recv(1)
        assert byte, f"the server closed during the handshake: {head!r}"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    s.sendall(masked_text_frame(json.dumps(first).encode()))
    return s


def masked_text_frame(payload: bytes) -> bytes:
    """A client's text frame: final, masked (RFC 6455 section 5.3)."""
    mask = os.urandom(4)
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return bytes([0x81]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
