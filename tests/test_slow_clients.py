"""Sockets that never close (issue 33 item 10, the slowloris part): a client that sends half its headers
and stalls, or trickles them a byte at a time, is closed once the header timeout has passed; one that
sends its headers and then half its body gets a 408 and its connection closed once the body timeout
has passed. Real raw sockets against a real server (in this process with short timeouts, and `tussle
serve` with its flags); no wall time is asserted, only that the server ends the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.support.client import RunningServer, TussleClient
from tests.support.serving import ServeProcess

WAIT = 30.0  # far past the short timeouts below: a server that never times out fails the test


@pytest.fixture
async def quick(tmp_path) -> AsyncIterator[RunningServer]:
    srv = await RunningServer(str(tmp_path / "t.db"), header_timeout_s=0.5, body_timeout_s=0.5).start()
    yield srv
    await srv.stop()


async def closed_after(reader: asyncio.StreamReader) -> bytes:
    """All the server writes until it closes the connection (AssertionError if it never does)."""
    try:
        async with asyncio.timeout(WAIT):
            return await reader.read()
    except TimeoutError:
        raise AssertionError(f"the server kept the stalled connection open for {WAIT:g} s") from None


async def test_half_a_header_then_silence_is_closed(quick: RunningServer):
    reader, writer = await asyncio.open_connection("127.0.0.1", quick.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    await writer.drain()
    assert await closed_after(reader) == b"", "closed without an answer: no request came"
    writer.close()


async def test_a_header_trickled_a_byte_at_a_time_is_closed(quick: RunningServer):
    reader, writer = await asyncio.open_connection("127.0.0.1", quick.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    closed = asyncio.ensure_future(closed_after(reader))
    # Each byte comes well within any per-read timeout; the header as a whole never ends.
    line = b"X-a: b\r\n"
    with contextlib.suppress(ConnectionError):
        for i in range(int(WAIT / 0.05)):
            if closed.done():
                break
            writer.write(line[i % len(line) :][:1])
            await writer.drain()
            await asyncio.sleep(0.05)
    assert await closed == b""
    writer.close()


@pytest.mark.parametrize("route", ["create", "command"])
async def test_a_body_that_stalls_is_a_408_and_the_connection_closed(quick: RunningServer, route: str):
    if route == "create":
        path, token = "/encounters", ""
        body = json.dumps({"name": "slow", "ruleset": "freeform"}).encode()
    else:  # the request log reads a command's body back for its type: it must not wait for the rest
        async with aiohttp.ClientSession() as session:
            enc = await TussleClient(quick.base_url, session, quick.db_path).create()
        path, token = f"{enc.path}/commands", f"Authorization: Bearer {enc.gm_token}\r\n"
        body = json.dumps({"type": "note", "text": "slow"}).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", quick.port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{token}".encode()
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body[:10]
    )
    await writer.drain()
    answer = await closed_after(reader)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer
    assert b"connection: close" in head.lower(), head
    assert json.loads(rest)["error"]["code"] == "request_timeout"
    writer.close()


async def test_a_prompt_client_keeps_its_connection_between_requests(quick: RunningServer):
    reader, writer = await asyncio.open_connection("127.0.0.1", quick.port)
    for _ in range(2):  # two requests on one connection, each sent whole at once
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        length = next(
            int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")
        )
        await reader.readexactly(length)
    writer.close()


def test_tussle_serve_takes_the_timeouts_as_flags(tmp_path):
    srv = ServeProcess("--db", str(tmp_path / "t.db"), "--header-timeout", "0.5", "--body-timeout", "0.5")
    assert srv.port is not None, srv.stderr

    async def stall_both() -> tuple[bytes, bytes]:
        r1, w1 = await asyncio.open_connection(srv.connect_host, srv.port)
        w1.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        r2, w2 = await asyncio.open_connection(srv.connect_host, srv.port)
        w2.write(b"POST /encounters HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{")
        got = await asyncio.gather(closed_after(r1), closed_after(r2))
        w1.close()
        w2.close()
        return got

    try:
        header, body = asyncio.run(stall_both())
    finally:
        srv.stop()
    assert header == b"" and body.startswith(b"HTTP/1.1 408"), (header, body)
