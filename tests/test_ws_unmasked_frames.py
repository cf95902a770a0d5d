"""Unmasked client websocket frames are refused (issue 33 item 10; RFC 6455 section 5.1: "a server MUST
close the connection upon receiving a frame that is not masked", here with Close 1002). A raw socket
speaks the protocol byte by byte against a real server: masked frames are served, and the first
unmasked one, whether alone, behind masked ones in the same write, or sent with the upgrade request
itself, ends the connection before it is acted on.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.support.client import Encounter, serving
from tests.support.ws import WAIT, masked_text_frame

PING = json.dumps({"op": "ping"}).encode()
# What would answer at once with the encounter's events and caught_up, were it taken.
SUBSCRIBE = json.dumps({"op": "subscribe", "projection": "events", "after": 0}).encode()


def unmasked_text_frame(payload: bytes) -> bytes:
    assert len(payload) < 126
    return bytes([0x81, len(payload)]) + payload


@pytest.fixture
async def enc(tmp_path) -> AsyncIterator[Encounter]:
    async with serving(str(tmp_path / "t.db")) as client:
        yield await client.create()


def upgrade(enc: Encounter) -> bytes:
    host = enc.client.base_url.removeprefix("http://")
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {enc.path}/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {enc.gm_token}\r\n\r\n"
    ).encode()


async def connect(enc: Encounter, then: bytes = b"") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = enc.client.base_url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(upgrade(enc) + then)
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def server_frame(reader: asyncio.StreamReader) -> tuple[int, bytes] | None:
    """The next frame the server sends (opcode, payload), or None once it closed the connection."""
    try:
        b0, b1 = await asyncio.wait_for(reader.readexactly(2), WAIT)
    except asyncio.IncompleteReadError:
        return None
    assert not b1 & 0x80, "server frames are never masked"
    n = b1 & 0x7F
    if n >= 126:
        n = int.from_bytes(await reader.readexactly(2 if n == 126 else 8), "big")
    return b0 & 0x0F, await reader.readexactly(n)


async def frames_until_closed(reader: asyncio.StreamReader) -> list[tuple[int, bytes]]:
    got = []
    while (f := await server_frame(reader)) is not None:
        got.append(f)
    return got


def texts(frames: list[tuple[int, bytes]]) -> list[dict]:
    return [json.loads(p) for op, p in frames if op == 0x1]


def close_code(frames: list[tuple[int, bytes]]) -> int:
    (close,) = [p for op, p in frames if op == 0x8]
    return int.from_bytes(close[:2], "big")


async def test_masked_frames_are_served(enc: Encounter):
    reader, writer = await connect(enc)
    writer.write(masked_text_frame(PING))
    op, payload = await server_frame(reader)
    assert (op, json.loads(payload)["type"]) == (0x1, "pong")
    writer.close()


async def test_an_unmasked_frame_closes_the_connection_with_1002(enc: Encounter):
    reader, writer = await connect(enc)
    writer.write(unmasked_text_frame(SUBSCRIBE))
    got = await frames_until_closed(reader)
    assert close_code(got) == 1002 and texts(got) == [], got
    writer.close()


async def test_masked_frames_before_an_unmasked_one_are_served_and_it_is_not(enc: Encounter):
    reader, writer = await connect(enc)
    writer.write(masked_text_frame(PING))
    op, payload = await server_frame(reader)
    assert json.loads(payload)["type"] == "pong"
    writer.write(masked_text_frame(PING) + unmasked_text_frame(SUBSCRIBE))
    got = await frames_until_closed(reader)
    # The second ping was taken (its pong may be dropped by the close); the subscription never was.
    assert {t["type"] for t in texts(got)} <= {"pong"}, got
    assert close_code(got) == 1002
    writer.close()


async def test_an_unmasked_frame_sent_with_the_upgrade_request_is_refused(enc: Encounter):
    reader, writer = await connect(enc, then=unmasked_text_frame(SUBSCRIBE))
    got = await frames_until_closed(reader)
    assert close_code(got) == 1002 and texts(got) == [], got
    writer.close()


async def test_an_ordinary_client_still_works(enc: Encounter):
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(
            f"{enc.client.base_url}{enc.path}/ws", headers={"Authorization": f"Bearer {enc.gm_token}"}
        )
        await ws.send_json({"op": "ping"})
        assert (await ws.receive_json(timeout=WAIT))["type"] == "pong"
        await ws.close()
