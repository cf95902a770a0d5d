"""A client's own mistakes are not server errors (issue 33 item 3), under `tussle serve` on SQLite and
PostgreSQL: a client that hangs up in the middle of its body is neither logged as a failure (no
traceback, no `internal`) nor counted as a 500 — anyone could otherwise inflate the error metrics and
wake an operator — and a body sent with a Content-Encoding it does not have is a 400, deflate as gzip.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import urllib.request

import pytest

from tests.support.serving import ServeProcess


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


async def hang_up_mid_body(proc: ServeProcess, path: str, reset: bool) -> None:
    reader, writer = await asyncio.open_connection(proc.connect_host, proc.port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        f"Content-Length: 5000\r\n\r\n".encode()
        + b'{"type": "note", "text": "half'
    )
    await writer.drain()
    await asyncio.sleep(0.2)  # the handler is waiting for the rest of the body
    if reset:  # an RST, as a client killed or a network dropping it sends
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


@pytest.mark.parametrize("reset", [False, True], ids=["fin", "rst"])
async def test_a_hang_up_mid_body_is_not_a_500_and_deflate_is_a_400(serve_args, reset):
    proc = ServeProcess(*serve_args, "--host", "127.0.0.1")
    assert proc.port is not None, proc.stderr
    try:
        status, created = post(
            f"{proc.url}/encounters",
            b'{"name": "x", "ruleset": "freeform"}',
            {"Content-Type": "application/json"},
        )
        assert status == 201, created
        commands = f"/encounters/{created['id']}/commands"
        for _ in range(3):
            await hang_up_mid_body(proc, commands, reset)
            await hang_up_mid_body(proc, "/encounters", reset)
        # A plain body under `Content-Encoding: deflate` (gzip was already a 400).
        for encoding in ("deflate", "gzip"):
            status, answer = post(
                f"{proc.url}/encounters",
                b'{"name": "y", "ruleset": "freeform"}',
                {"Content-Type": "application/json", "Content-Encoding": encoding},
            )
            assert status == 400, (encoding, status, answer)
            assert answer["error"]["details"].get("field") == "Content-Encoding", (encoding, answer)
        await asyncio.sleep(0.5)  # the hung-up requests are finished
        with urllib.request.urlopen(f"{proc.url}/metrics", timeout=30) as r:
            metrics = r.read().decode()
        assert 'status="500"' not in metrics, [m for m in metrics.splitlines() if "500" in m]
    finally:
        log = proc.stop()
    assert "Traceback" not in log and "ConnectionResetError" not in log, log[-3000:]
    assert '"internal"' not in log and '"status": 500' not in log, log[-3000:]
